// A placeholder of the page's expression evaluator (written in branch report-page).
var SymshapeExpr = {};
