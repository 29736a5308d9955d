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

/* Sets err to `code` (normally BW_E_OPENCL) with the message
 * "CALL failed: NAME (STATUS) for OBJECT", OBJECT formatted from fmt.
 * Returns code. */
bw_code ocl_error_set(bw_error *err, bw_code code, const char *call, int cl_status,
                      const char *object_fmt, ...) BW_PRINTF(5, 6);

#endif
