package dev.ctk.envtest.internal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a container-mode API server is made of, as {@code ContainerApiServer.Builder} collected it.
 * Holds no Testcontainers type, so it can exist when Testcontainers is not on the classpath.
 *
 * <pre>{@code
 * ContainerSpec spec = new ContainerSpec(ContainerSpec.Variant.CONTROL_PLANE,
 *     "registry.k8s.io/kube-apiserver:v1.31.4", "registry.k8s.io/etcd:3.5.15-0", null, null,
 *     null, Duration.ofSeconds(60), Duration.ofMinutes(5), List.of(), 50);
 * }</pre>
 *
 * @param variant etcd + kube-apiserver, or one k3s container
 * @param apiServerImage the kube-apiserver image (control plane)
 * @param etcdImage the etcd image (control plane)
 * @param k3sImage the k3s image (k3s)
 * @param localAssets a folder with kube-apiserver and etcd to build a local image from, or null
 * @param controllerManagerImage the image to run kube-controller-manager from (garbage collector
 *     and namespace controller), or null for none; with {@code localAssets}, the local image
 * @param startTimeout how long start-up may take once the images are there
 * @param pullTimeout how long pulling one missing image may take
 * @param apiServerFlags extra kube-apiserver flags; a later flag wins over a default of the same
 *     name
 * @param logLines how many last log lines a failure message shows
 */
public record ContainerSpec(
    Variant variant,
    String apiServerImage,
    String etcdImage,
    String k3sImage,
    Path localAssets,
    String controllerManagerImage,
    Duration startTimeout,
    Duration pullTimeout,
    List<String> apiServerFlags,
    int logLines) {

  /** {@link #controllerManagerImage()} when kube-controller-manager comes from the local image. */
  public static final String LOCAL_IMAGE = "<local image>";

  /** kube-apiserver flags that ctk sets in a container and a user cannot change, with why. */
  public static final Map<String, String> API_SERVER_OWNED =
      Map.of(
          "--etcd-servers", "it is the etcd container's address on the private network.",
          "--secure-port",
              "it is 6443 inside the container, published on a free host port.",
          "--bind-address", "it is 0.0.0.0, so that the published port reaches it.",
          "--cert-dir", "ctk reads the serving certificate the client trusts from there.",
          "--token-auth-file", "it holds the admin identity of clientConfig().");

  /**
   * Creates a spec; copies the flag list.
   *
   * @param variant etcd + kube-apiserver, or k3s
   * @param apiServerImage the kube-apiserver image
   * @param etcdImage the etcd image
   * @param k3sImage the k3s image
   * @param localAssets the folder for a local image, or null
   * @param controllerManagerImage the kube-controller-manager image, or null
   * @param startTimeout the start-up bound
   * @param pullTimeout the bound of one pull
   * @param apiServerFlags extra kube-apiserver flags
   * @param logLines log lines in failure messages
   */
  public ContainerSpec {
    apiServerFlags = List.copyOf(apiServerFlags);
  }

  /**
   * Whether kube-controller-manager runs beside kube-apiserver.
   *
   * @return true when {@link #controllerManagerImage()} is set
   */
  public boolean controllerManager() {
    return controllerManagerImage != null;
  }

  /** The two container layouts. */
  public enum Variant {
    /** An etcd container and a kube-apiserver container on one private network. */
    CONTROL_PLANE,
    /** One privileged k3s container: a whole cluster, controllers included. */
    K3S
  }
}
