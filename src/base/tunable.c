// SPDX-License-Identifier: GPL-2.0
/*
 * The tunables' engine: a command's tables parsed in one getopt_long pass, their --help
 * lines, their values for a banner and the command line that sets them again.
 */
#include <getopt.h>
#include <string.h>

#include "exit_status.h"
#include "tunable.h"

int cgt_usage_error(const char *name, const char *fmt, const char *arg, const char *valid)
{
	fprintf(stderr, "cgtorture: --%s: ", name);
	fprintf(stderr, fmt, arg);
	if (valid)
		fprintf(stderr, " (valid: %s)", valid);
	fputc('\n', stderr);
	return CGT_EXIT_USAGE;
}

void cgt_tunables_table_defaults(const struct tunable *table, size_t n, void *cfg)
{
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];

		if (t->def)
			t->kind->parse(t, t->def, (char *)cfg + t->offset);
		else if (t->kind->fallback)
			t->kind->fallback((char *)cfg + t->offset);
	}
}

int cgt_tunable_list_check(const char *name, const char *arg)
{
	for (const char *item = arg;; item += strcspn(item, ",") + 1) {
		size_t len = strcspn(item, ","), key = strcspn(item, ",=");

		if (!len)
			return cgt_usage_error(name, "'%s' has an empty item", arg, NULL);
		for (const char *o = arg; o < item; o += strcspn(o, ",") + 1)
			if (strcspn(o, ",=") == key && !strncmp(o, item, key)) {
				fprintf(stderr, "cgtorture: --%s: '%.*s' is named twice in '%s'\n",
					name, (int)key, item, arg);
				return CGT_EXIT_USAGE;
			}
		if (!item[len])
			return 0;
	}
}

/* getopt_long's index @idx back to its set and tunable; the positionals have no option. */
static int tunable_take(struct tunable_set *sets, size_t nsets, int idx, const char *arg)
{
	for (size_t s = 0; s < nsets; s++) {
		struct tunable_set *set = &sets[s];

		for (size_t i = 0; i < set->n; i++) {
			const struct tunable *t = &set->table[i];

			if (!t->name || idx--)
				continue;
			set->given |= 1ULL << i;
			return t->kind->parse(t, arg, (char *)set->cfg + t->offset);
		}
	}
	return CGT_EXIT_USAGE;
}

/* The words left after the options, one to each positional in order; each must be given. */
static int positionals_take(struct tunable_set *sets, size_t nsets, int argc, char **argv,
			    int next)
{
	for (size_t s = 0; s < nsets; s++) {
		struct tunable_set *set = &sets[s];

		for (size_t i = 0; i < set->n; i++) {
			const struct tunable *t = &set->table[i];
			int ret;

			if (t->name)
				continue;
			if (next == argc) {
				fprintf(stderr, "cgtorture: %s needs one %s (see %s --help)\n",
					argv[0], t->help, argv[0]);
				return CGT_EXIT_USAGE;
			}
			ret = t->kind->parse(t, argv[next++], (char *)set->cfg + t->offset);
			if (ret)
				return ret;
			set->given |= 1ULL << i;
		}
	}
	if (next < argc) {
		fprintf(stderr, "cgtorture: unexpected argument '%s' (see --help)\n", argv[next]);
		return CGT_EXIT_USAGE;
	}
	return 0;
}

/*
 * "unknown option '--lock' (did you mean --locks?)": the word as typed, up to its '=', and
 * the options it begins, if any. getopt_long would take an abbreviation for the option it
 * begins; a word that is not an option's whole name is refused, as a later option may make
 * an abbreviation of today ambiguous.
 */
static int unknown_option(const struct option *opts, const char *word)
{
	size_t len = strcspn(word, "=");
	char alike[256] = "";

	for (const struct option *o = opts; o->name && len > 2 && word[1] == '-'; o++) {
		if (strlen(o->name) == len - 2 && !strncmp(o->name, word + 2, len - 2)) {
			fprintf(stderr, "cgtorture: --%s takes no value (see --help)\n", o->name);
			return CGT_EXIT_USAGE;
		}
		if (!strncmp(o->name, word + 2, len - 2))
			snprintf(alike + strlen(alike), sizeof(alike) - strlen(alike), "%s--%s",
				 alike[0] ? ", " : " (did you mean ", o->name);
	}
	fprintf(stderr, "cgtorture: unknown option '%.*s'%s%s (see --help)\n", (int)len, word, alike,
		alike[0] ? "?)" : "");
	return CGT_EXIT_USAGE;
}

/* The word getopt_long took for option @o: "--name", "--name=value", or an abbreviation. */
static const char *option_word(char **argv, const struct option *o)
{
	if (o->has_arg == no_argument || (optarg && optarg != argv[optind - 1]))
		return argv[optind - 1];
	return argv[optind - 2];
}

int cgt_tunables_sets_parse(struct tunable_set *sets, size_t nsets, void (*help)(FILE *f),
			    int argc, char **argv)
{
	size_t n = 0, k = 0;
	int c, idx;

	for (size_t s = 0; s < nsets; s++)
		n += sets[s].n;
	struct option opts[n + 2];

	for (size_t s = 0; s < nsets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct tunable *t = &sets[s].table[i];

			if (t->name)
				opts[k++] = (struct option){ t->name, t->kind->flag ?
							     no_argument : required_argument,
							     NULL, 0 };
		}
	opts[k++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[k] = (struct option){ 0 };

	/* 0, not 1: glibc starts afresh, as a second command line (a report's) needs */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
		int ret;

		switch (c) {
		case 0: {
			const char *word = option_word(argv, &opts[idx]);

			if (strncmp(word + 2, opts[idx].name, strcspn(word + 2, "=")) ||
			    strlen(opts[idx].name) != strcspn(word + 2, "="))
				return unknown_option(opts, word);
			ret = tunable_take(sets, nsets, idx, optarg);
			if (ret)
				return ret;
			break;
		}
		case 'h':
			help(stdout);
			return -1;
		case ':':
			fprintf(stderr, "cgtorture: %s needs a value (see --help)\n", argv[optind - 1]);
			return CGT_EXIT_USAGE;
		default:
			return unknown_option(opts, argv[optind - 1]);
		}
	}
	return positionals_take(sets, nsets, argc, argv, optind);
}

bool cgt_tunables_given(const struct tunable_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->table[i].name && !strcmp(set->table[i].name, name))
			return set->given & (1ULL << i);
	return false;
}

void cgt_tunables_table_help(FILE *f, const struct tunable *table, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		const struct tunable_kind_ops *k = t->kind;
		char lhs[48];

		if (!t->name)
			continue;
		snprintf(lhs, sizeof(lhs), "--%s%s%s", t->name, t->metavar ? " " : "",
			 t->metavar ? t->metavar : "");
		fprintf(f, "  %-26s %s", lhs, t->help);
		if (t->def && !k->default_below)
			fprintf(f, " [%s]", t->def);
		fputc('\n', f);
		if (t->def && k->default_below)
			fprintf(f, "  %-26s [%s]\n", "", t->def);
		if (k->choices)
			fprintf(f, "  %-26s %s: %s\n", "", k->label, k->choices());
	}
	fprintf(f, "  %-26s this text\n", "--help");
}

void cgt_tunables_table_values(FILE *f, const struct tunable *table, size_t n, const void *cfg)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, " %s=", table[i].name ? table[i].name : table[i].metavar);
		table[i].kind->print(f, &table[i], (const char *)cfg + table[i].offset);
	}
}

/* The command that runs this configuration again (every value spelled out). */
void cgt_tunables_table_command(FILE *f, const char *cmd, const struct tunable *table,
				size_t n, const void *cfg, const char *unspelled)
{
	fputs(cmd, f);
	for (size_t i = 0; i < n; i++) {
		const struct tunable *t = &table[i];
		const struct tunable_kind_ops *k = t->kind;
		const void *src = (const char *)cfg + t->offset;

		if (unspelled && t->name && !strcmp(t->name, unspelled))
			continue;
		if (k->spell) {
			k->spell(f, t, src);
			continue;
		}
		if (!t->name)
			fputc(' ', f);
		else
			fprintf(f, " --%s ", t->name);
		k->print(f, t, src);
	}
}
