// 2,000 nested regions (a stack overflow in the parser): refused before
// parsing, brackets nest deeper than 256 levels.
func.func @f() {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
scf.execute_region {
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
}
return }
