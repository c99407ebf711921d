/* main.c — command line of giochi-sim (placeholder while the runner is built). */
#include <stdio.h>

int main(void)
{
    puts("giochi-sim " GIOCHI_VERSION);
    return 0;
}
