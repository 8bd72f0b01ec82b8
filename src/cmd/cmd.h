/* cmd.h - subcommand handlers. Each takes the subcommand's own argc/argv (argv[0] is the
 * subcommand name) and returns the process exit status (0, 1, 2 or 130).
 * To add a subcommand: write src/cmd/NAME.c with cmd_NAME, declare it here and add one
 * line to the table in src/main.c. */
#ifndef IOB_CMD_CMD_H
#define IOB_CMD_CMD_H

int cmd_dd(int argc, char **argv);
int cmd_cp(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_bonnie(int argc, char **argv);
int cmd_postmark(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_results(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_db(int argc, char **argv);

#endif
