package dev.ctk.envtest.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The flags with which ctk runs local etcd and kube-apiserver (v1.20 and later: TLS on the secure
 * port only, a static admin token, RBAC), and the flags a user may not override.
 *
 * <pre>{@code
 * List<String> etcd = LocalFlags.etcd(workDir.resolve("etcd-data"), 40001, 40002);
 * }</pre>
 */
public final class LocalFlags {

  /** Flags ctk sets on etcd itself, each with the reason. */
  public static final Map<String, String> ETCD_OWNED =
      Map.of(
          "--data-dir", "etcd keeps its data in ctk's temporary work folder, deleted on close.",
          "--listen-client-urls", "ctk picks a free client port and points kube-apiserver at it.",
          "--advertise-client-urls", "ctk picks a free client port and points kube-apiserver at it.",
          "--listen-peer-urls", "ctk picks a free peer port.",
          "--initial-advertise-peer-urls", "ctk picks a free peer port.",
          "--initial-cluster", "ctk runs a one-member cluster on a free peer port.");

  /** Flags ctk sets on kube-apiserver itself, each with the reason or what to use instead. */
  public static final Map<String, String> API_SERVER_OWNED =
      Map.of(
          "--secure-port", "use withSecurePort(int) instead.",
          "--bind-address", "a local API server listens on 127.0.0.1 only.",
          "--etcd-servers", "ctk points it at the etcd it starts.",
          "--cert-dir", "clients trust the certificate it generates there.",
          "--tls-cert-file", "clients trust the certificate it generates in --cert-dir.",
          "--tls-private-key-file", "clients trust the certificate it generates in --cert-dir.",
          "--token-auth-file", "it holds the admin token of clientConfig() and kubeconfig().");

  private LocalFlags() {}

  /**
   * etcd's flags: one member named {@code default} on {@code 127.0.0.1}.
   *
   * @param dataDir the data folder
   * @param clientPort the client port
   * @param peerPort the peer port
   * @return the flags
   */
  public static List<String> etcd(Path dataDir, int clientPort, int peerPort) {
    String client = "http://127.0.0.1:" + clientPort;
    String peer = "http://127.0.0.1:" + peerPort;
    return List.of(
        "--name=default",
        "--data-dir=" + dataDir,
        "--listen-client-urls=" + client,
        "--advertise-client-urls=" + client,
        "--listen-peer-urls=" + peer,
        "--initial-advertise-peer-urls=" + peer,
        "--initial-cluster=default=" + peer);
  }

  /**
   * kube-apiserver's flags: TLS with a self-generated certificate in {@code certDir}, the admin
   * identity of {@code credentials} (written into {@code workDir}), RBAC.
   *
   * @param workDir the folder with the credential files
   * @param certDir where it writes its serving certificate
   * @param securePort the HTTPS port
   * @param etcdClientPort etcd's client port
   * @param credentials the admin identity
   * @return the flags
   */
  public static List<String> apiServer(
      Path workDir,
      Path certDir,
      int securePort,
      int etcdClientPort,
      AdminCredentials credentials) {
    List<String> flags = new ArrayList<>();
    flags.add("--advertise-address=127.0.0.1");
    // No controller keeps the default/kubernetes Endpoints of a test server; kube 1.3x's reconciler also refuses a
    // loopback advertise address ("may not be in the loopback range") and the server exits at start.
    flags.add("--endpoint-reconciler-type=none");
    flags.add("--bind-address=127.0.0.1");
    flags.add("--secure-port=" + securePort);
    flags.add("--etcd-servers=http://127.0.0.1:" + etcdClientPort);
    flags.add("--cert-dir=" + certDir);
    flags.add("--authorization-mode=RBAC");
    flags.add("--service-cluster-ip-range=10.0.0.0/24");
    flags.add("--allow-privileged=true");
    flags.add("--disable-admission-plugins=ServiceAccount");
    flags.addAll(credentials.apiServerFlags(workDir.toString()));
    return flags;
  }

  /**
   * kube-controller-manager's flags: only the garbage-collector and namespace controllers, no leader election, the
   * admin identity of {@code kubeconfig} for the API and for delegated authentication, serving on loopback.
   *
   * @param kubeconfig the admin kubeconfig file
   * @param certDir where it writes its serving certificate
   * @param securePort its HTTPS port (health)
   * @return the flags
   */
  public static List<String> controllerManager(Path kubeconfig, Path certDir, int securePort) {
    return controllerManager(kubeconfig.toString(), certDir.toString(), "127.0.0.1", securePort);
  }

  /**
   * The same flags for any file system and bind address (a container's, where it binds {@code 0.0.0.0} so that its
   * published health port answers).
   *
   * @param kubeconfig the admin kubeconfig file's path
   * @param certDir where it writes its serving certificate
   * @param bindAddress where it serves health
   * @param securePort its HTTPS port (health)
   * @return the flags
   */
  public static List<String> controllerManager(String kubeconfig, String certDir, String bindAddress,
      int securePort) {
    return List.of(
        "--kubeconfig=" + kubeconfig,
        "--authentication-kubeconfig=" + kubeconfig,
        "--authorization-kubeconfig=" + kubeconfig,
        // the test server has no extension-apiserver-authentication ConfigMap (no request-header CA to publish)
        "--authentication-skip-lookup=true",
        "--controllers=garbagecollector,namespace",
        "--leader-elect=false",
        "--use-service-account-credentials=false",
        "--bind-address=" + bindAddress,
        "--secure-port=" + securePort,
        "--cert-dir=" + certDir);
  }
}
