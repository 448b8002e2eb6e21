/* placeholder until the 'render' command lands */
#include <stdio.h>
#include "commands.h"
int cmd_render(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "vskin render: not available in this build\n");
    return 2;
}
