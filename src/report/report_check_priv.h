/* report_check_priv: what only src/report and its tests use of
 * report_check.h: the words of a check's status. */
#ifndef REPORT_CHECK_PRIV_H
#define REPORT_CHECK_PRIV_H

#include "report_check.h"

const char *report_check_status_name(report_check_status s); /* "same", "regressed", "improved" */

#endif
