/* ocl_error: OpenCL status codes as bwlab errors. Every failed OpenCL call
 * becomes a message naming the call, the CL error name (not just the
 * number) and the object involved:
 *   "clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61) for buffer 'src' (2.00 GiB)" */
#ifndef OCL_ERROR_H
#define OCL_ERROR_H

#include "bw_error.h"

/* "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for codes not in the
 * OpenCL 3.0 headers. Never NULL. */
const char *ocl_error_name(int cl_status);


#endif
