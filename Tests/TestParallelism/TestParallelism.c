// Caps how many test cases Swift Testing runs at once in the test process.
//
// Swift Testing 6.3 starts every test case at once unless
// `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH` is set. On a two-core machine the main-actor
// tests then wait behind hundreds of others for the main actor and the cooperative pool, and a
// time limit counts that wait. With a cap a case waits at a gate that Swift Testing places before
// the time limit starts. The default is twice the cores (what Swift Testing itself intended);
// a value set in the environment wins. Set before `main`, when the testing library reads it.
#include "TestParallelism.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const variable = "SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH";
static int defaulted = 0;

__attribute__((constructor)) static void test_parallelism_set_default(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  char width[32];
  snprintf(width, sizeof width, "%ld", 2 * (cores > 0 ? cores : 1));
  defaulted = getenv(variable) == NULL;
  setenv(variable, width, 0);
}

int test_parallelism_defaulted(void) { return defaulted; }

int test_parallelism_width(void) {
  const char *value = getenv(variable);
  return value ? atoi(value) : 0;
}
