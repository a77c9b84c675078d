#!/usr/bin/env bash
# Installs the system tools the tests need (Chromium's headless shell, pdftotext, PostgreSQL, Redis,
# and WordPress on Apache, mod_php and MariaDB for the plugin's tests, xmllint and zbarimg for KSeF)
# when they are missing.
set -euo pipefail

can_install() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; }

full_chromium() {
  local c
  for c in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
    [ -x "$c" ] && return 0
  done
  return 1
}

need=()
# The tests drive Chromium's headless shell (test/helpers/chromium.ts): the same engine as the
# browser at well under its CPU. Where the shell cannot be installed, the full browser does.
shell_wanted=
if [ -z "${CHROME_PATH:-}" ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
  if can_install; then
    shell_wanted=1
  elif ! full_chromium; then
    need+=(chromium-headless-shell)
  fi
fi
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || need+=(redis-server)
[ -f /usr/share/wordpress/wp-settings.php ] || need+=(wordpress)
[ -x /usr/sbin/apache2 ] || need+=(apache2)
[ -f /usr/lib/apache2/modules/libphp8.2.so ] || ls /usr/lib/apache2/modules/libphp*.so >/dev/null 2>&1 || need+=(libapache2-mod-php)
command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || need+=(mariadb-server)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v zbarimg >/dev/null 2>&1 || need+=(zbar-tools)

if [ ${#need[@]} -gt 0 ] || [ -n "$shell_wanted" ]; then
  if can_install; then
    # Only the shell wanted: a package index that cannot be read leaves the full browser to the tests.
    updated=1
    apt-get update -qq >/dev/null || updated=
    if [ -n "$shell_wanted" ]; then
      echo "installing chromium-headless-shell from Debian's packages"
      if [ -z "$updated" ] || ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; then
        full_chromium || need+=(chromium)
        echo "chromium-headless-shell could not be installed: the browser tests use the full Chromium" >&2
      fi
    fi
    if [ ${#need[@]} -gt 0 ]; then
      [ -n "$updated" ] || { echo "apt-get update failed: cannot install ${need[*]}" >&2; exit 1; }
      echo "installing ${need[*]} from Debian's packages"
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    fi
  else
    echo "The tests need: ${need[*]}." >&2
    echo "Install them (on Debian: sudo apt-get install ${need[*]}), or set CHROME_PATH to a Chromium binary." >&2
    exit 1
  fi
fi
