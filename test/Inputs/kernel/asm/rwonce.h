/* seqlint test stub: READ_ONCE/WRITE_ONCE live in <linux/compiler.h> here. */
#include <linux/compiler.h>
