/* placeholder until the 'info' command lands */
#include <stdio.h>
#include "commands.h"
int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "vskin info: not available in this build\n");
    return 2;
}
