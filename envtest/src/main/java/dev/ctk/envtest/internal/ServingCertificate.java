package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The serving certificate that kube-apiserver generates for itself in {@code --cert-dir} when
 * given no {@code --tls-cert-file}: {@code apiserver.crt} holds the server certificate and the
 * throwaway CA that signed it. Clients trust exactly that file. The certificate names
 * (v1.20) {@code 127.0.0.1}, the service IP and {@code kubernetes.default.svc} and the like, but
 * not {@code localhost}: clients use {@code https://127.0.0.1:<port>}.
 *
 * <pre>{@code
 * String pem = ServingCertificate.read(certDir.resolve("apiserver.crt")); // null until written
 * ServingCertificate.requireName(pem, "127.0.0.1", certFile);
 * }</pre>
 */
public final class ServingCertificate {

  /** The file name kube-apiserver writes in {@code --cert-dir}. */
  public static final String FILE_NAME = "apiserver.crt";

  private ServingCertificate() {}

  /**
   * Reads and parses the certificate file.
   *
   * @param file the {@code apiserver.crt}
   * @return its PEM text, or {@code null} when the file is not there yet
   * @throws IOException when it cannot be read
   * @throws CertificateException when it is there but not (yet) complete
   */
  public static String read(Path file) throws IOException, CertificateException {
    String pem;
    try {
      pem = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!pem.strip().endsWith("-----END CERTIFICATE-----") || certificates(pem).isEmpty()) {
      throw new CertificateException(file + " holds no certificate yet");
    }
    return pem;
  }

  /**
   * Fails unless the first (the server's) certificate names {@code ipAddress}.
   *
   * @param pem the PEM text
   * @param ipAddress e.g. {@code 127.0.0.1}
   * @param file where the PEM came from, for the message
   * @throws EnvtestException when it does not
   */
  public static void requireName(String pem, String ipAddress, Path file) {
    List<String> names = subjectAlternativeNames(pem);
    if (!names.contains(ipAddress)) {
      throw new EnvtestException(
          "The serving certificate that kube-apiserver generated ("
              + file
              + ") does not name "
              + ipAddress
              + ": its names are "
              + names
              + ". Clients of a local API server connect to "
              + ipAddress
              + "; check extra flags such as --advertise-address given with withApiServerFlags(..).");
    }
  }

  /**
   * The subject alternative names (DNS names and IP addresses) of the first certificate.
   *
   * @param pem the PEM text
   * @return the names, in certificate order
   */
  public static List<String> subjectAlternativeNames(String pem) {
    try {
      List<X509Certificate> certificates = certificates(pem);
      if (certificates.isEmpty()) {
        return List.of();
      }
      Collection<List<?>> entries = certificates.get(0).getSubjectAlternativeNames();
      List<String> names = new ArrayList<>();
      if (entries != null) {
        for (List<?> entry : entries) {
          names.add(String.valueOf(entry.get(1)));
        }
      }
      return names;
    } catch (CertificateParsingException e) {
      return List.of();
    } catch (CertificateException e) {
      throw new EnvtestException("Cannot parse a serving certificate: " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> certificates(String pem) throws CertificateException {
    Collection<? extends java.security.cert.Certificate> parsed =
        CertificateFactory.getInstance("X.509")
            .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    List<X509Certificate> certificates = new ArrayList<>();
    for (java.security.cert.Certificate certificate : parsed) {
      certificates.add((X509Certificate) certificate);
    }
    return certificates;
  }
}
