package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ctk.envtest.values.EnvtestException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Certificates made with the JDK's keytool (EC keys: quick to generate), so no openssl is needed. */
class ServingCertificateTest {

  @TempDir Path dir;

  @Test
  void reads_a_complete_certificate_and_its_names() throws Exception {
    Path file = certificate("SAN=ip:127.0.0.1,dns:kubernetes");

    String pem = ServingCertificate.read(file);

    assertThat(ServingCertificate.subjectAlternativeNames(pem))
        .containsExactly("127.0.0.1", "kubernetes");
    ServingCertificate.requireName(pem, "127.0.0.1", file);
  }

  @Test
  void a_certificate_without_the_address_is_refused_with_its_names() throws Exception {
    Path file = certificate("SAN=dns:localhost");
    String pem = ServingCertificate.read(file);

    assertThatThrownBy(() -> ServingCertificate.requireName(pem, "127.0.0.1", file))
        .isInstanceOf(EnvtestException.class)
        .hasMessage(
            "The serving certificate that kube-apiserver generated ("
                + file
                + ") does not name 127.0.0.1: its names are [localhost]. Clients of a local API"
                + " server connect to 127.0.0.1; check extra flags such as --advertise-address"
                + " given with withApiServerFlags(..).");
  }

  @Test
  void a_missing_file_is_null_and_a_half_written_one_is_not_complete() throws Exception {
    assertThat(ServingCertificate.read(dir.resolve("apiserver.crt"))).isNull();

    Path file = certificate("SAN=ip:127.0.0.1");
    String pem = Files.readString(file);
    Files.writeString(file, pem.substring(0, pem.length() / 2));
    assertThatThrownBy(() -> ServingCertificate.read(file))
        .isInstanceOf(CertificateException.class);
  }

  private Path certificate(String san) throws Exception {
    Path keystore = dir.resolve("ks-" + System.nanoTime() + ".p12");
    run(
        "-genkeypair", "-alias", "a", "-keyalg", "EC", "-dname", "CN=test",
        "-validity", "1", "-ext", san, "-keystore", keystore.toString(), "-storepass", "secret",
        "-storetype", "PKCS12");
    Path pem = dir.resolve("apiserver.crt");
    run(
        "-exportcert", "-rfc", "-alias", "a", "-keystore", keystore.toString(), "-storepass",
        "secret", "-file", pem.toString());
    return pem;
  }

  private static void run(String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    System.arraycopy(args, 0, command, 1, args.length);
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor(30, TimeUnit.SECONDS)).as("keytool ended: " + output).isTrue();
    assertThat(keytool.exitValue()).as("keytool exit code; output: " + output).isZero();
  }
}
