/*
 * timeline.c - the run's timeline (control.h: (cycle, sm, key, value) events
 * recorded by controllers and organisations) as JSON and CSV.  Nothing is
 * written when nothing recorded, so runs without controllers report exactly
 * what they did before the timeline existed.
 */
#include "report/report.h"

/* The ",\n  \"timeline\": [...]" member of a run's JSON object, or nothing. */
void wc_json_timeline(const wc_stats *st, FILE *f)
{
    if (!st->n_timeline && !st->timeline_dropped) return;
    fputs(",\n  \"timeline\": [", f);
    for (size_t i = 0; i < st->n_timeline; i++) {
        const wc_tl_event *e = &st->timeline[i];
        fprintf(f, "%s{\"cycle\": %llu, \"sm\": %d, \"key\": ", i ? ",\n    " : "\n    ",
                (unsigned long long)e->cycle, (int)e->sm);
        wc_json_string(f, e->key);
        fputs(", \"value\": ", f);
        wc_json_number(f, e->value, true);
        fputc('}', f);
    }
    fputs(st->n_timeline ? "\n  ]" : "]", f);
    fprintf(f, ",\n  \"timeline_dropped\": %llu", (unsigned long long)st->timeline_dropped);
}

void wc_stats_write_timeline_csv(const wc_stats *st, FILE *f, bool header)
{
    if (header) fputs("workload,cycle,sm,key,value\n", f);
    for (size_t i = 0; i < st->n_timeline; i++) {
        const wc_tl_event *e = &st->timeline[i];
        wc_csv_field(f, st->workload);
        fprintf(f, ",%llu,%d,", (unsigned long long)e->cycle, (int)e->sm);
        wc_csv_field(f, e->key);
        fputc(',', f);
        wc_json_number(f, e->value, true);
        fputc('\n', f);
    }
}
