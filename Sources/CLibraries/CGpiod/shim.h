// Debian 12 ships libgpiod 1.6 (the v1 API).
#include <gpiod.h>
