/* results_plausibility: a measured figure checked against its device's
 * nominal DRAM peak and its probe's memory plateau; the words go beside
 * the figure in every table and into the documents ("plausibility"). */
#ifndef RESULTS_PLAUSIBILITY_H
#define RESULTS_PLAUSIBILITY_H

#include <stddef.h>

/* The plausibility check of one measured figure (GB/s) against a nominal
 * peak (0: none known): NULL when it is at or below the peak, else, in
 * buf, the words that go beside it, "above the device's nominal 4.80
 * TB/s: cache or compression?". */
#define RESULTS_PLAUSIBILITY_MAX 160
const char *results_nominal_plausibility(double gbs, double nominal_gbs, char *buf, size_t n);

/* A measured figure more than RESULTS_PLATEAU_FACTOR times the probe's
 * memory plateau is not memory's: the plateau is a measured read rate on
 * a working set past every cache, and a figure that far above it was
 * served by a cache (or the data compressed), where noise and a mode's
 * mix of reads and writes stay well within the factor. */
#define RESULTS_PLATEAU_FACTOR 1.5

/* The check of one measured figure (GB/s) against the probe's memory
 * plateau (0: none; date: the probe's, or NULL): NULL when it is at or
 * below RESULTS_PLATEAU_FACTOR times the plateau, else, in buf, "above
 * 1.5x the probe's memory plateau of 3.89 TB/s (DATE): cache or
 * compression?". */
const char *results_plateau_plausibility(double gbs, double plateau_gbs, const char *date, char *buf, size_t n);

/* Both checks, the nominal peak's first: the words of the first that
 * fires, or NULL. */
const char *results_figure_plausibility(double gbs, double nominal_gbs, double plateau_gbs, const char *date, char *buf,
                                       size_t n);

#endif
