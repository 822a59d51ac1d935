/**
 * Real Kubernetes API servers for tests, without JUnit: {@link dev.ctk.envtest.LocalApiServer}
 * runs etcd and kube-apiserver from local binaries (found as {@link dev.ctk.envtest.EnvtestAssets}
 * describes), and every server kind implements {@link dev.ctk.envtest.ApiServer}.
 *
 * <pre>{@code
 * try (ApiServer server = LocalApiServer.builder().build().start();
 *      KubernetesClient client = server.newClient()) {
 *   // the same test body as in fake mode
 * }
 * }</pre>
 *
 * <p>What it does not do:
 *
 * <ul>
 *   <li>Download binaries: run {@code .ci/provision-envtest} (ctk's repository; builds kube-apiserver
 *       1.32.13, 1.34.4 and 1.37.2, with kube-controller-manager, and etcd 3.5 from Go modules) or
 *       {@code setup-envtest use <version>} first.
 *   <li>Run controllers: a local server is a bare kube-apiserver, so there is no garbage
 *       collection, deleted namespaces stay {@code Terminating}, no service-account tokens are
 *       minted, and admission plugin {@code ServiceAccount} is off. {@code withControllerManager()}
 *       adds kube-controller-manager's garbage-collector and namespace controllers (only those), when a
 *       kube-controller-manager of the same version sits beside kube-apiserver (setup-envtest's archives
 *       have none; {@code .ci/provision-envtest} builds one where the Go module proxy allows: 1.37.2 yes,
 *       1.32.13 no). The endpoint reconciler is off ({@code --endpoint-reconciler-type=none}): the
 *       {@code default/kubernetes} Endpoints are not kept.
 *   <li>Client certificates: the admin identity is a static bearer token in group {@code
 *       system:masters}; impersonate other users with fabric8's impersonation settings if needed.
 *   <li>Windows: local binaries start through a POSIX {@code /bin/sh} (the watchdog that stops them
 *       when the JVM dies).
 *   <li>Clean up after SIGKILL of the JVM beyond the processes: the children die within seconds,
 *       but the temporary folder {@code ctk-envtest-*} stays in {@code java.io.tmpdir}.
 *   <li>Share one server between JVMs. Within one JVM, {@link dev.ctk.envtest.SharedApiServers}
 *       keeps one server per configuration key for whoever asks for it (the JUnit extension uses
 *       it); the server classes themselves never reuse one on their own.
 *   <li>Run k3s or the {@code registry.k8s.io} images on ctk's build machines: those variants of
 *       {@link dev.ctk.envtest.ContainerApiServer} are tested for their commands and messages only;
 *       the image built locally from envtest binaries is the container variant that runs there.
 *   <li>Build a local image from anything but Linux binaries: the image is {@code FROM scratch},
 *       and the shared libraries of dynamically linked binaries are found with {@code ldd}, which
 *       must be installed.
 *   <li>Verify the server's certificate on a remote Docker host: when Docker's published ports are
 *       not on this machine, the client of a container server trusts any certificate and skips
 *       hostname verification.
 *   <li>Merge kubeconfig files: {@link dev.ctk.envtest.ExistingCluster} reads one file (a given
 *       path, or the first file of {@code KUBECONFIG}, or {@code ~/.kube/config}), not the merged
 *       {@code KUBECONFIG} list kubectl builds.
 *   <li>Watch CRDs: {@link dev.ctk.envtest.CrdInstaller} polls every 100 ms until a CRD is
 *       {@code Established} and served.
 * </ul>
 *
 * @since 0.1.0
 */
package dev.ctk.envtest;
