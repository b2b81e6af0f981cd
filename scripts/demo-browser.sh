#!/bin/sh
# A scripted browser for `wopi login` against `wopi-host serve --demo`: submits the sign-in form as demo/demo with
# curl and follows the redirect back to the client. Use as BROWSER=scripts/demo-browser.sh (absolute path).
jar=$(mktemp); page=$(curl -s -c "$jar" "$1"); action=$(printf '%s' "$1" | sed 's/?.*//'); set --
for pair in $(printf '%s' "$page" | grep -o '<input type="hidden" name="[^"]*" value="[^"]*"' \
    | sed 's/<input type="hidden" name="\([^"]*\)" value="\([^"]*\)"/\1=\2/'); do set -- "$@" --data-urlencode "$pair"; done
location=$(curl -s -b "$jar" -o /dev/null -w '%{redirect_url}' "$@" --data-urlencode username=demo \
    --data-urlencode password=demo "$action"); rm -f "$jar"; curl -s -o /dev/null "$location"
