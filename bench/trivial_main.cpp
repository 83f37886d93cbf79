// A C++ program that does nothing: bench/whole_process.py times it beside
// `symshape simplify 1` to show the process start cost that is not symshape's own
// (linked as the command is: statically where the command is static).
int main() { return 0; }
