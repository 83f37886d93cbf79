// A placeholder of the report page (written in branch report-page): the model
// and its node count.
var SymshapeReport = {
  render: function (container, data) {
    container.textContent = data.model + ": " + data.graph.nodes.length + " nodes";
  }
};
document.addEventListener("DOMContentLoaded", function () {
  var element = document.getElementById("symshape-data");
  if (element && element.textContent !== "@REPORT_" + "DATA@")
    SymshapeReport.render(document.body, JSON.parse(element.textContent));
});
