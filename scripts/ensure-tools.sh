#!/usr/bin/env bash
# Installs the system tools the tests need (Chromium, pdftotext, PostgreSQL, Redis, and WordPress on
# Apache, mod_php and MariaDB for the plugin's tests, xmllint and zbarimg for KSeF) when they are missing.
set -euo pipefail

need=()
chrome="${CHROME_PATH:-}"
if [ -z "$chrome" ]; then
  for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    [ -x "$c" ] && chrome="$c" && break
  done
fi
[ -n "$chrome" ] || need+=(chromium)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
[ -f /usr/share/wordpress/wp-settings.php ] || need+=(wordpress)
[ -x /usr/sbin/apache2 ] || need+=(apache2)
[ -f /usr/lib/apache2/modules/libphp8.2.so ] || ls /usr/lib/apache2/modules/libphp*.so >/dev/null 2>&1 || need+=(libapache2-mod-php)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v zbarimg >/dev/null 2>&1 || need+=(zbar-tools)

if [ ${#need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "installing ${need[*]} from Debian's packages"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "The tests need: ${need[*]}." >&2
    echo "Install them (on Debian: sudo apt-get install ${need[*]}), or set CHROME_PATH to a Chromium binary." >&2
    exit 1
  fi
fi
