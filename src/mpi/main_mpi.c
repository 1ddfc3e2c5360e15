/*
 * main_mpi.c - the process entry of build/warpcache-mpi: the whole warpcache
 * program (main.c's table), where `sweep --mpi` runs its points on MPI ranks.
 * MPI is initialised only for that command, so every other command behaves
 * exactly as in build/warpcache, with or without mpirun.
 */
#include <string.h>

#include "cli/cli.h"
#include "mpi/sweep_mpi.h"

static bool has_arg(int argc, char **argv, const char *a)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], a) == 0) return true;
    return false;
}

int main(int argc, char **argv)
{
    /* --help prints and exits; under mpirun that must not leave MPI half
     * initialised, so it goes the plain way */
    if (argc > 1 && strcmp(argv[1], "sweep") == 0 && has_arg(argc, argv, "--mpi") &&
        !has_arg(argc, argv, "-h") && !has_arg(argc, argv, "--help"))
        return wc_out_finish_stdout(wc_mpi_sweep(argc - 1, argv + 1));
    return wc_cli_main(argc, argv);
}
