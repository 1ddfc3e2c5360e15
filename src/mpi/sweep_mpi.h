/*
 * sweep_mpi.h - `warpcache-mpi sweep --mpi ...`: the sweep of cmd_sweep.c
 * with its points spread over MPI ranks (sweep_mpi.c).  Only warpcache-mpi
 * links this; the plain program has no MPI in it.
 */
#ifndef WC_MPI_SWEEP_MPI_H
#define WC_MPI_SWEEP_MPI_H

/* Initialises MPI, runs the sweep on every rank (rank 0 writes the results
 * file, the others simulate), finalises MPI.  Returns the exit status. */
int wc_mpi_sweep(int argc, char **argv);

#endif
