/* An empty shared object, loaded by the runner tests in place of the seqlint
 * plugin: clang loads it with -fplugin= and it registers nothing. The findings
 * of those tests come from #warning lines (see lit.local.cfg). */
int seqlint_noop_plugin_marker(void);
int seqlint_noop_plugin_marker(void) { return 0; }
