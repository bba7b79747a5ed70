#!/usr/bin/env bash
# builder-image.sh — makes a local image that stands in for the Dockerfile's default BUILDER_IMAGE (a JDK 17 with
# Maven), for machines that reach no image registry: the host's own JDK and Maven, the shared libraries they load,
# and the few programs that Maven's launcher script runs (a POSIX shell, uname, ls, expr, dirname, tr), loaded with
# `docker import`. Pulls nothing. Idempotent: an image already there is kept (FORCE=1 rebuilds it).
#
#   bash docker/builder-image.sh            # makes minibroker-builder:17
#   DOCKER_BUILDKIT=1 docker build --build-arg BUILDER_IMAGE=minibroker-builder:17 ... .
#
# Environment: BUILDER_IMAGE (the tag), JDK_HOME (a JDK 17: javac and jlink's modules), MAVEN_HOME (a Maven 3.x
# installation; by default the one `mvn` on PATH runs).
set -euo pipefail
BUILDER_IMAGE="${BUILDER_IMAGE:-minibroker-builder:17}"
JDK_HOME="${JDK_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
MAVEN_HOME="${MAVEN_HOME:-$(mvn -v 2>/dev/null | sed -n 's/^Maven home: //p')}"

if [ "${FORCE:-0}" != 1 ] && docker image inspect "$BUILDER_IMAGE" >/dev/null 2>&1; then
  echo "builder-image: $BUILDER_IMAGE is there"
  exit 0
fi
[ -x "$JDK_HOME/bin/javac" ] || { echo "builder-image: no javac in JDK_HOME=$JDK_HOME" >&2; exit 1; }
[ -f "$MAVEN_HOME/bin/m2.conf" ] || { echo "builder-image: no Maven in MAVEN_HOME=$MAVEN_HOME" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
root="$work/rootfs"
mkdir -p "$root/tmp" "$root/etc" "$root/opt" "$root/bin" "$root/root/.m2"
chmod 1777 "$root/tmp"

# The JDK and Maven with their symbolic links resolved: distributions link into /etc and /usr/share/java (Maven's
# conf/ and lib/*.jar, the JDK's conf/ and cacerts), which the image would not have. The JDK keeps every module
# (Maven compiles in-process through jdk.compiler) and drops what a build does not read.
mkdir -p "$root/opt/jdk"
tar -C "$JDK_HOME" -ch --exclude=./jmods --exclude=./man --exclude=./docs --exclude=./lib/src.zip . \
  | tar -C "$root/opt/jdk" -x
cp -rL "$MAVEN_HOME" "$root/opt/maven"

# Maven's launcher is a shell script: the shell and the programs it runs, from the host, on /bin.
tools="uname ls expr dirname tr cat"
cp -L "$(command -v dash || command -v sh)" "$root/bin/sh"
for t in $tools; do cp -L "$(command -v "$t")" "$root/bin/$t"; done

# The shared libraries all of those load, at the paths the host has them.
{ for f in "$root/bin/"*; do ldd "$f" 2>/dev/null || true; done
  find "$root/opt/jdk" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec ldd {} \; 2>/dev/null
} | awk '/=> \//{print $3} /^[[:space:]]*\/lib/{print $1}' | sort -u > "$work/libs"
echo /lib64/ld-linux-x86-64.so.2 >> "$work/libs"
while read -r lib; do
  if [ -e "$lib" ]; then cp -L --parents "$lib" "$root"; fi
done < "$work/libs"

# A UTF-8 locale, so that Java's platform encoding (console output, file names) is not ASCII.
if [ -d /usr/lib/locale/C.utf8 ]; then cp -r --parents /usr/lib/locale/C.utf8 "$root"; fi

# Maven's user.home comes from the password database: /root, where the Dockerfile mounts the settings secret and the
# repository cache.
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"

tar -C "$root" -c . | docker import \
  -c 'ENV PATH=/opt/maven/bin:/opt/jdk/bin:/usr/bin:/bin' -c 'ENV JAVA_HOME=/opt/jdk' \
  -c 'ENV MAVEN_HOME=/opt/maven' -c 'ENV HOME=/root' -c 'ENV LANG=C.UTF-8' \
  - "$BUILDER_IMAGE" >/dev/null
docker run --rm --network none "$BUILDER_IMAGE" mvn -v >/dev/null \
  || { echo "builder-image: $BUILDER_IMAGE does not run mvn" >&2; exit 1; }
echo "builder-image: built $BUILDER_IMAGE ($(docker image inspect -f '{{.Size}}' "$BUILDER_IMAGE" | awk '{printf "%d MB", $1/1e6}'))"
