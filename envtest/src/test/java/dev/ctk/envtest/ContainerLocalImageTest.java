package dev.ctk.envtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.ctk.envtest.internal.ContainerLocalImage;
import dev.ctk.envtest.values.EnvtestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What goes into the locally built image, decided without Docker. */
class ContainerLocalImageTest {

  @TempDir Path dir;

  @Test
  void ldd_output_gives_the_libraries_and_the_loader() {
    String debianEtcd =
        "\tlinux-vdso.so.1 (0x00007ffd0b1f2000)\n"
            + "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0ba5f60000)\n"
            + "\t/lib64/ld-linux-x86-64.so.2 (0x00007f0ba6155000)\n";

    assertThat(ContainerLocalImage.parseLdd(Path.of("etcd"), debianEtcd))
        .containsExactly("/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2");
    assertThat(ContainerLocalImage.parseLdd(Path.of("kube-apiserver"), "\tnot a dynamic executable\n")).isEmpty();
    assertThat(ContainerLocalImage.parseLdd(Path.of("x"), "\tstatically linked\n")).isEmpty();
  }

  @Test
  void a_library_ldd_cannot_find_is_named() {
    EnvtestException failure =
        catchThrowableOfType(
            EnvtestException.class,
            () -> ContainerLocalImage.parseLdd(Path.of("/opt/etcd"), "\tlibssl.so.3 => not found\n"));

    assertThat(failure)
        .hasMessage(
            "/opt/etcd needs the shared library libssl.so.3, which ldd cannot find on this machine, so the"
                + " local image cannot include it. Install the package that provides it, or use a statically"
                + " linked binary.");
  }

  @Test
  void a_folder_without_the_binaries_is_described() throws IOException {
    Files.writeString(dir.resolve("etcd"), "#!/bin/sh\n");
    Files.setPosixFilePermissions(dir.resolve("etcd"), PosixFilePermissions.fromString("rwxr-xr-x"));

    EnvtestException failure =
        catchThrowableOfType(EnvtestException.class, () -> ContainerLocalImage.contents(dir));

    assertThat(failure)
        .hasMessage(
            "withLocalImage(" + dir + "): no executable kube-apiserver there (the folder has: etcd). Point it"
                + " at a folder with kube-apiserver and etcd for Linux, e.g. one that .ci/provision-envtest or"
                + " setup-envtest prepared.");
  }

  @Test
  void the_dockerfile_copies_every_file_from_scratch() {
    Map<String, Path> files = new LinkedHashMap<>();
    files.put("/lib/x86_64-linux-gnu/libc.so.6", Path.of("/lib/x86_64-linux-gnu/libc.so.6"));
    files.put("/usr/local/bin/kube-apiserver", Path.of("/assets/kube-apiserver"));
    files.put("/usr/local/bin/etcd", Path.of("/assets/etcd"));

    assertThat(ContainerLocalImage.dockerfile(files, Path.of("/assets")))
        .isEqualTo(
            "FROM scratch\n"
                + "COPY f0 /lib/x86_64-linux-gnu/libc.so.6\n"
                + "COPY f1 /usr/local/bin/kube-apiserver\n"
                + "COPY f2 /usr/local/bin/etcd\n"
                + "LABEL dev.ctk.envtest.assets=\"/assets\"\n");
  }

  @Test
  void the_image_of_this_machines_binaries_holds_what_ldd_lists() {
    EnvtestAssets assets = ContainerTestEnvironment.requireAssets();

    Map<String, Path> contents = ContainerLocalImage.contents(assets.directory());

    assertThat(contents.keySet()).contains("/usr/local/bin/kube-apiserver", "/usr/local/bin/etcd");
    assertThat(contents.keySet())
        .containsAll(ContainerLocalImage.sharedLibraries(assets.directory().resolve("etcd")));
    assertThat(contents.values()).allSatisfy(file -> assertThat(file).isRegularFile());
  }
}
