/* placeholder: replaced by the CLI */
int main(void) { return 0; }
