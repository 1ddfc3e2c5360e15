/* main.c - placeholder until the CLI lands. */
#include <stdio.h>
int main(void)
{
    puts("warpcache: under construction");
    return 0;
}
