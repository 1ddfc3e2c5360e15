/*
 * fuzz_config.c - libFuzzer target for the gpgpusim.config parser
 * (src/config/parse.c, options.c, geom.c): any bytes must either load or be
 * refused with a message that names the file, and a configuration that loads
 * and validates must dump and load back to the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warpcache/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dump(const wc_config *cfg, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    wc_config_dump(cfg, f);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wc_config cfg;
    wc_config_defaults(&cfg);
    wc_err err = {{0}};
    if (wc_config_load_text(&cfg, (const char *)data, size, "fuzz.config", NULL, NULL, &err) < 0) {
        if (strncmp(err.msg, "fuzz.config", 11) != 0) abort(); /* errors say where */
        return 0;
    }
    if (wc_config_validate(&cfg, &err) < 0) return 0;
    size_t n1, n2;
    char *a = dump(&cfg, &n1);
    wc_config back;
    wc_config_defaults(&back);
    if (wc_config_load_text(&back, a, n1, "dump", NULL, NULL, &err) < 0) abort();
    char *b = dump(&back, &n2);
    /* dump -> load is lossless (the first line names where it was loaded from) */
    const char *ra = strchr(a, '\n'), *rb = strchr(b, '\n');
    if (!ra || !rb || strcmp(ra, rb) != 0) abort();
    free(a);
    free(b);
    return 0;
}
