#!/usr/bin/env bash
# The feed in eight languages against the feed in one, side by side in one run, on one Herald (the jar, the
# launcher's JVM flags, MariaDB):
#   two projects with the same 30 notifications (rich text, a link): one in English only, one with seven
#   translations of each (fr, de, es, pt-BR, ja, zh-Hant, ar: eight languages);
#   rounds alternating three runs: the one-language feed without Accept-Language (today's request), the
#   eight-language feed with real browsers' Accept-Language values (bench/accept-language.txt, each request the
#   next value), and the one-language feed with the same values;
#   medians of requests/s and p99, and the ratio of the eight-language feed against the one-language feed without
#   a header (target: >= 0.9 x), then which language each value was served and the feed cache's figures.
# Prints TARGET MISSED lines (exit 1) when a target is not met: figures, not a test.
#   bench/languages.sh [--no-build] [seconds per run, default 8] [connections, default 64] [rounds, default 3]
# Needs: a JDK >= 21, Maven, wrk, curl, a MariaDB root login without password on 127.0.0.1:3306.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
BUILD=true
POSITIONAL=()
for arg in "$@"; do
    case $arg in
        --no-build) BUILD=false ;;
        -h|--help)  usage; exit 0 ;;
        -*)         echo "unknown option $arg" >&2; usage >&2; exit 2 ;;
        *)          POSITIONAL+=("$arg") ;;
    esac
done
RUN_SECONDS=${POSITIONAL[0]:-8}
CONNECTIONS=${POSITIONAL[1]:-64}
ROUNDS=${POSITIONAL[2]:-3}
[[ $RUN_SECONDS =~ ^[1-9][0-9]*$ && $CONNECTIONS =~ ^[1-9][0-9]*$ && $ROUNDS =~ ^[1-9][0-9]*$ ]] \
    || { usage >&2; exit 2; }
WARMUP_SECONDS=${LANGUAGES_WARMUP_SECONDS:-12}

DB=herald_languages_bench
PORT=18860
TOKEN=LanguagesBenchAdminToken0123456789abcdefgh
ONE_KEY=LanguagesBenchOneKey0123456789abcdefghij
EIGHT_KEY=LanguagesBenchEightKey0123456789abcdefgh
VALUES=bench/accept-language.txt

# shellcheck source=tools/jdk.sh
. tools/jdk.sh
use_jdk 21 javac
# shellcheck source=bench/common.sh
. bench/common.sh
for tool in wrk curl mariadb; do
    command -v $tool >/dev/null || { echo "$tool is missing"; exit 1; }
done
MISSED=()
cleanup() {
    local status=$?
    bench_stop_jar
    exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if $BUILD; then
    mvn -B -q -DskipTests package
fi
bench_start_jar "${LANGUAGES_BENCH_ENV:-}" "${LANGUAGES_BENCH_JVM:-}"
admin() { bench_admin "$@"; }
field() { json_field "$@"; }

message() {
    printf '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"%s"}]}]}' "$1"
}
LANGUAGES=(fr de es pt-BR ja zh-Hant ar)
declare -A TEXTS=(
    [en]="Faster dashboards, saved filters and a CSV export for every report."
    [fr]="Tableaux de bord plus rapides, filtres enregistrés et export CSV pour chaque rapport."
    [de]="Schnellere Dashboards, gespeicherte Filter und ein CSV-Export für jeden Bericht."
    [es]="Paneles más rápidos, filtros guardados y exportación CSV para cada informe."
    [pt-BR]="Painéis mais rápidos, filtros salvos e exportação CSV para cada relatório."
    [ja]="ダッシュボードの高速化、フィルターの保存、すべてのレポートのCSVエクスポート。"
    [zh-Hant]="更快的儀表板、已儲存的篩選條件，以及每份報告的 CSV 匯出。"
    [ar]="لوحات معلومات أسرع، وعوامل تصفية محفوظة، وتصدير CSV لكل تقرير."
)
ONE=$(admin POST /projects '{"name":"One language"}' | field id)
EIGHT=$(admin POST /projects '{"name":"Eight languages"}' | field id)
admin POST "/projects/$ONE/api-keys" "{\"key\":\"$ONE_KEY\"}" > /dev/null
admin POST "/projects/$EIGHT/api-keys" "{\"key\":\"$EIGHT_KEY\"}" > /dev/null
for i in $(seq 1 30); do
    body="{\"status\":\"PUBLISHED\",\"title\":\"News $i\",\"message\":$(message "$i. ${TEXTS[en]}"),\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/news/$i\",\"target\":\"_blank\"}}}"
    admin POST "/projects/$ONE/notifications" "$body" > /dev/null
    id=$(admin POST "/projects/$EIGHT/notifications" "$body" | field id)
    for tag in "${LANGUAGES[@]}"; do
        admin PUT "/notifications/$id/translations/$tag" \
            "{\"title\":\"$tag $i\",\"message\":$(message "$i. ${TEXTS[$tag]}"),\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/$tag/news/$i\",\"target\":\"_blank\"}}}" > /dev/null
    done
done

ONE_URL="http://127.0.0.1:$PORT/api/v1/public/$ONE_KEY/notifications"
EIGHT_URL="http://127.0.0.1:$PORT/api/v1/public/$EIGHT_KEY/notifications"
served() { curl -sS -o /dev/null -D - -H "Accept-Language: $1" "$EIGHT_URL" | tr -d '\r' | sed -n 's/^[Cc]ontent-[Ll]anguage: //p'; }
echo "languages served by the eight-language feed to the values of $VALUES:"
sort -u "$VALUES" | while IFS= read -r value; do printf '  %-8s <- %s\n' "$(served "$value")" "$value"; done
[ "$(served 'fr-CA,fr;q=0.9')" = fr ] || die "fr-CA was not served French"
[ "$(curl -sS "$ONE_URL" | grep -o '"id":' | wc -l)" -eq 30 ] || die "the one-language feed has not 30 notifications"

wrk_run() { wrk -t2 -c"$CONNECTIONS" -d"$1s" --latency "${@:2}"; }
one() { wrk_run "$1" -s bench/hotpaths.lua "$ONE_URL" -- 200; }
eight() { wrk_run "$1" -s bench/rotate.lua "$EIGHT_URL" -- Accept-Language "$VALUES"; }
one_headers() { wrk_run "$1" -s bench/rotate.lua "$ONE_URL" -- Accept-Language "$VALUES"; }
one "$WARMUP_SECONDS" > /dev/null
eight "$WARMUP_SECONDS" > /dev/null
one_headers "$WARMUP_SECONDS" > /dev/null

rps() { awk '/^Requests\/sec/ { print $2 }' "$1"; }
p99() { awk '$1 == "99%" { print $2 }' "$1" | awk '{ v = $1 + 0; u = $1; sub(/^[0-9.]+/, "", u)
           if (u == "us") v /= 1000; else if (u == "s") v *= 1000; printf "%.2f\n", v }'; }
others() { sed -n 's/^answers: [0-9]*=[0-9]* other=\([0-9]*\)$/\1/p' "$1"; }
for round in $(seq 1 "$ROUNDS"); do
    one "$RUN_SECONDS" > "$WORK/one-$round"
    eight "$RUN_SECONDS" > "$WORK/eight-$round"
    one_headers "$RUN_SECONDS" > "$WORK/oneheaders-$round"
    printf 'round %d: one %8s/s p99 %6s ms | eight %8s/s p99 %6s ms | one with headers %8s/s p99 %6s ms\n' "$round" \
        "$(rps "$WORK/one-$round")" "$(p99 "$WORK/one-$round")" "$(rps "$WORK/eight-$round")" \
        "$(p99 "$WORK/eight-$round")" "$(rps "$WORK/oneheaders-$round")" "$(p99 "$WORK/oneheaders-$round")"
    for run in one eight oneheaders; do
        [ "$(others "$WORK/$run-$round")" = 0 ] || MISSED+=("answers other than 200 in the $run run of round $round")
    done
done
median_of() { for f in "$WORK/$1"-*; do "$2" "$f"; done | median; }
O_RPS=$(median_of one rps); E_RPS=$(median_of eight rps); H_RPS=$(median_of oneheaders rps)
O_P99=$(median_of one p99); E_P99=$(median_of eight p99); H_P99=$(median_of oneheaders p99)
RATIO=$(awk -v a="$E_RPS" -v b="$O_RPS" 'BEGIN { printf "%.2f", a / b }')
P99_RATIO=$(awk -v a="$E_P99" -v b="$O_P99" 'BEGIN { printf "%.2f", a / b }')
echo
echo "medians of $ROUNDS rounds, ${RUN_SECONDS} s each, $CONNECTIONS connections, $(nproc) CPUs:"
printf '  one language, no header          %10.0f requests/s   p99 %6.2f ms\n' "$O_RPS" "$O_P99"
printf '  eight languages, browser headers %10.0f requests/s   p99 %6.2f ms\n' "$E_RPS" "$E_P99"
printf '  one language, browser headers    %10.0f requests/s   p99 %6.2f ms\n' "$H_RPS" "$H_P99"
printf '  eight / one                      %10s x            p99 %6s x   (target: >= 0.9 x)\n' "$RATIO" "$P99_RATIO"
awk -v r="$RATIO" 'BEGIN { exit !(r >= 0.9) }' || MISSED+=("requests/s in eight languages $RATIO x the one-language feed's, under 0.9 x")
echo
curl -sS --max-time 10 "http://127.0.0.1:$OBSERVE/observe/metrics" | grep -E "^herald_feed_cache[a-z_]* " | sed 's/^/  /'

if [ ${#MISSED[@]} -gt 0 ]; then
    printf 'TARGET MISSED: %s\n' "${MISSED[@]}"
    exit 1
fi
