/* placeholder until the 'convert' command lands */
#include <stdio.h>
#include "commands.h"
int cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "vskin convert: not available in this build\n");
    return 2;
}
