/* jobscreen.cgi: see jsweb.h and docs/api.md. */
#include "config.h"

#include "jsweb.h"

int main(void)
{
    jsw_serve();
    return 0;
}
