/*
 * entry.c - the process entry of build/warpcache.  The commands are in
 * main.c; warpcache-mpi has its own entry (src/mpi/main_mpi.c) around the
 * same table, which is why this is a file of its own: the plain program
 * links nothing of MPI.
 */
#include "cli/cli.h"

int main(int argc, char **argv)
{
    return wc_cli_main(argc, argv);
}
