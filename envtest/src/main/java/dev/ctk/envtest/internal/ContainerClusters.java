package dev.ctk.envtest.internal;

import dev.ctk.envtest.values.EnvtestException;

/**
 * Starts the container-mode server a {@link ContainerSpec} describes: connects to Docker, removes
 * what JVMs on this host that died left behind ({@link ContainerOrphans#removeOrphans}), makes
 * sure the images are there (builds the local one, or pulls what is missing), then starts the
 * containers. The only entry from {@code ContainerApiServer} into code that needs Testcontainers.
 *
 * <pre>{@code
 * ContainerCluster cluster = ContainerClusters.start(spec, new ContainerStart());
 * }</pre>
 */
public final class ContainerClusters {

  private ContainerClusters() {}

  /**
   * Starts a server.
   *
   * @param spec what to start
   * @param progress records what the start creates; {@link ContainerStart#cancel()} makes it give up
   * @return the running server
   * @throws EnvtestException if Docker is not reachable, an image is missing, start-up fails, or
   *     the start was cancelled
   */
  public static ContainerCluster start(ContainerSpec spec, ContainerStart progress) {
    ContainerDocker docker = ContainerDocker.connect();
    ContainerOrphans.removeOrphans(docker);
    progress.throwIfCancelled();
    if (spec.variant() == ContainerSpec.Variant.K3S) {
      docker.ensureImage(spec.k3sImage(), "k3s", spec.pullTimeout(), "withK3sImage(..)");
      progress.throwIfCancelled();
      return ContainerK3s.start(docker, spec, spec.k3sImage(), progress);
    }
    String apiServerImage;
    String etcdImage;
    String controllerManagerImage = spec.controllerManagerImage();
    if (spec.localAssets() != null) {
      if (spec.controllerManager()) {
        ContainerLocalImage.requireControllerManager(spec.localAssets());
      }
      apiServerImage = ContainerLocalImage.ensure(docker, spec.localAssets());
      etcdImage = apiServerImage;
      controllerManagerImage = spec.controllerManager() ? apiServerImage : null;
    } else {
      apiServerImage = spec.apiServerImage();
      etcdImage = spec.etcdImage();
      docker.ensureImage(etcdImage, "etcd", spec.pullTimeout(), "withEtcdImage(..)");
      docker.ensureImage(
          apiServerImage, "kube-apiserver", spec.pullTimeout(), "withApiServerImage(..)");
      if (controllerManagerImage != null) {
        docker.ensureImage(
            controllerManagerImage,
            "kube-controller-manager",
            spec.pullTimeout(),
            "withControllerManagerImage(..)");
      }
    }
    progress.throwIfCancelled();
    return ContainerControlPlane.start(
        docker, spec, apiServerImage, etcdImage, controllerManagerImage, progress);
  }

  /**
   * Why container mode cannot run here (Docker not reachable), or null.
   *
   * @return the reason or null
   */
  public static String unavailableReason() {
    return ContainerDocker.unavailableReason();
  }
}
