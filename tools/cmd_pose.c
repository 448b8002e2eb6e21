/* placeholder until the 'pose' command lands */
#include <stdio.h>
#include "commands.h"
int cmd_pose(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "vskin pose: not available in this build\n");
    return 2;
}
