#ifndef TEST_PARALLELISM_H
#define TEST_PARALLELISM_H

/// The most test cases Swift Testing runs at once in this process: its
/// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH` as set when the process started.
int test_parallelism_width(void);

/// Whether the process started without the variable, so the width is the default: twice the cores.
int test_parallelism_defaulted(void);

#endif
