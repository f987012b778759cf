# shellcheck shell=bash
# Sourced by .ci/run, bench/*.sh and jlink/build.sh. The machine's default java may be older than Herald needs
# (17 on ours): use_jdk picks the first JDK, JAVA_HOME first and then /usr/lib/jvm/*, whose major version is at
# least the one given and which has the given tool, and exports JAVA_HOME and PATH for it.
#   use_jdk 21 javac      use_jdk 25 jlink
use_jdk() {
    local minimum=$1 tool=${2:-java} candidate major
    for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/*; do
        if [ -z "$candidate" ] || [ ! -x "$candidate/bin/$tool" ]; then
            continue
        fi
        major=$("$candidate/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
        if [ "${major:-0}" -ge "$minimum" ] 2>/dev/null; then
            export JAVA_HOME="$candidate" PATH="$candidate/bin:$PATH"
            echo "JDK $major: $JAVA_HOME" >&2
            return 0
        fi
    done
    echo "no JDK >= $minimum with $tool (JAVA_HOME or /usr/lib/jvm)" >&2
    return 1
}
