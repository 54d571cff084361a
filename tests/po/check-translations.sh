#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The zh_CN and de translations (those of them po/LINGUAS lists) are
# complete: merged with a template made afresh from po/POTFILES.in, the way
# the i18n module's plugboard-pot target makes it, no message is left
# untranslated or fuzzy, and msgfmt --check accepts the file. Run from meson
# with the source root as $1 and a scratch directory as $2; TAP output.
set -u
root=$1
work=$2
mkdir -p "$work" || exit 1

for tool in xgettext msgmerge msgattrib msgfmt; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed (Debian: gettext)"
    exit 0
  fi
done

langs=""
for lang in $(sed -e 's/#.*//' "$root/po/LINGUAS"); do
  case "$lang" in zh_CN|de) langs="$langs $lang" ;; esac
done
if [ -z "$langs" ]; then
  echo "1..0 # SKIP po/LINGUAS lists neither zh_CN nor de yet"
  exit 0
fi

# The same keywords and flags as meson's i18n.gettext (preset: 'glib').
pot="$work/plugboard.pot"
if ! (cd "$root" && xgettext --package-name=plugboard --from-code=UTF-8 --add-comments \
        --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
        --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
        --flag=N_:1:pass-c-format --flag=C_:2:pass-c-format --flag=NC_:2:pass-c-format \
        --flag=g_dngettext:2:pass-c-format --flag=g_strdup_printf:1:c-format \
        --flag=g_string_printf:2:c-format --flag=g_string_append_printf:2:c-format \
        --flag=g_error_new:3:c-format --flag=g_set_error:4:c-format \
        --flag=g_markup_printf_escaped:1:c-format --flag=g_log:3:c-format \
        --flag=g_print:1:c-format --flag=g_printerr:1:c-format --flag=g_printf:1:c-format \
        --flag=g_fprintf:2:c-format --flag=g_sprintf:2:c-format --flag=g_snprintf:3:c-format \
        --files-from=po/POTFILES.in --output="$pot" 2>"$work/xgettext.log"); then
  echo "Bail out! xgettext failed: $(cat "$work/xgettext.log")"
  exit 1
fi

n=0
for lang in $langs; do n=$((n + 3)); done
echo "1..$n"

i=0
for lang in $langs; do
  po="$root/po/$lang.po"
  merged="$work/$lang.po"

  i=$((i + 1))
  if [ ! -f "$po" ]; then
    echo "not ok $i - $lang: po/LINGUAS lists it but po/$lang.po does not exist"
    i=$((i + 2)); echo "not ok $((i - 1)) - $lang: no file"; echo "not ok $i - $lang: no file"
    continue
  fi
  if ! msgmerge --quiet --no-wrap "$po" "$pot" -o "$merged" 2>"$work/$lang-msgmerge.log"; then
    echo "not ok $i - $lang: msgmerge failed: $(cat "$work/$lang-msgmerge.log")"
    cp "$po" "$merged"
  fi
  untranslated=$(msgattrib --untranslated --no-obsolete --no-wrap "$merged" | grep -c '^msgid ')
  # The header is the one msgid of an empty file.
  [ "$untranslated" -gt 0 ] && untranslated=$((untranslated - 1))
  if [ "$untranslated" -eq 0 ]; then
    echo "ok $i - $lang: every message of the template is translated"
  else
    echo "not ok $i - $lang: $untranslated untranslated messages:"
    msgattrib --untranslated --no-obsolete --no-wrap "$merged" | grep '^msgid "..*"' | sed 's/^/# /'
  fi

  i=$((i + 1))
  fuzzy=$(msgattrib --only-fuzzy --no-obsolete --no-wrap "$merged" | grep -c '^msgid "..*"')
  if [ "$fuzzy" -eq 0 ]; then
    echo "ok $i - $lang: no fuzzy message"
  else
    echo "not ok $i - $lang: $fuzzy fuzzy messages:"
    msgattrib --only-fuzzy --no-obsolete --no-wrap "$merged" | grep '^msgid "..*"' | sed 's/^/# /'
  fi

  i=$((i + 1))
  if stats=$(msgfmt --check --statistics -o /dev/null "$po" 2>&1); then
    echo "ok $i - $lang: msgfmt --check passes ($(echo "$stats" | tail -n 1))"
  else
    echo "not ok $i - $lang: msgfmt --check fails:"
    echo "$stats" | sed 's/^/# /'
  fi
done
