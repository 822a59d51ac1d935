package dev.ctk.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.controller.TimeSource;
import dev.ctk.fake.internal.FakeApiServer;
import dev.ctk.fake.internal.ObjectJson;
import dev.ctk.fake.internal.TimeSourceClock;
import dev.ctk.fake.internal.gc.CollectorSettings;
import dev.ctk.fake.internal.http.ListenException;
import dev.ctk.fake.internal.seed.SeedDocument;
import dev.ctk.fake.internal.seed.SeedSources;
import dev.ctk.fake.internal.version.KubeMinor;
import dev.ctk.fake.values.AdmissionHook;
import dev.ctk.fake.values.GarbageCollection;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An embedded fake Kubernetes API server, with a fabric8 client bound to it.
 *
 * <p>It serves the Kubernetes REST API: create, get, list, update, patch (JSON patch, JSON merge patch, strategic
 * merge patch for built-in kinds), delete and deletecollection, the status subresource, label and field selectors,
 * pagination, watches over websockets and HTTP streaming that resume from a resourceVersion, discovery, and
 * CustomResourceDefinitions. Informers made from {@link #client()} are real fabric8 informers that list and watch.
 * By default ({@link ClientTransport#IN_PROCESS}) the clients it hands out reach it inside this JVM, without a
 * socket; kubectl and other clients work against {@link #url()} or {@link #kubeconfig()}, whose HTTP listener on a
 * local port starts on first use. Both paths share the same store, faults and request journal.
 *
 * <pre>{@code
 * try (FakeCluster cluster = FakeCluster.builder()
 *     .withObjects(new ConfigMapBuilder().withNewMetadata().withName("web").endMetadata().build())
 *     .build()) {
 *   KubernetesClient client = cluster.client();
 *   ConfigMap web = client.configMaps().inNamespace("default").withName("web").get();
 *   // a watch event the store never saw, at the current resourceVersion: informers drop "web", GET still finds it
 *   cluster.events().emitDeleted(web);
 * }
 * }</pre>
 *
 * <p>Thread-safe. See the package documentation for what the fake does not do (yet).
 *
 * @since 0.1.0
 */
public final class FakeCluster implements AutoCloseable {

  /** Name of the cluster, user and context in {@link #kubeconfig()}. */
  public static final String CONTEXT = "ctk-fake";

  private final FakeApiServer server;
  private final ObjectJson json;
  private final EventInjector events;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final ClientTransport transport;
  private KubernetesClient sharedClient;

  private FakeCluster(FakeApiServer server, ObjectJson json, ClientTransport transport) {
    this.server = server;
    this.json = json;
    this.transport = transport;
    this.events = new EventInjector(server, json, this::requireOpen);
  }

  /**
   * Starts describing a cluster.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts an empty cluster (the namespaces {@code default}, {@code kube-system}, {@code kube-public} and
   * {@code kube-node-lease} exist). Its clients reach it in process; its HTTP listener binds a free port of
   * 127.0.0.1 on first use of {@link #url()}, {@link #port()}, {@link #kubeconfig()} or {@link #clientConfig()}.
   *
   * @return the running cluster
   */
  public static FakeCluster start() {
    return builder().build();
  }

  /**
   * The shared client bound to this cluster, created on first use and closed by {@link #close()}. Do not close it
   * yourself; use {@link #newClient()} for a client you own.
   *
   * @return the shared client
   */
  public synchronized KubernetesClient client() {
    requireOpen("client()");
    if (sharedClient == null) {
      sharedClient = newClient();
    }
    return sharedClient;
  }

  /**
   * A new client bound to this cluster, over its {@link #clientTransport()}; the caller closes it. Every client
   * {@link #client()} and {@code newClient()} hand out, of every cluster in this JVM, shares one fabric8
   * {@code KubernetesSerialization} (making one costs tens of milliseconds): its Jackson mapper settings and the
   * resource classes registered with it (a client's {@code resources(MyResource.class)}) are shared among all of
   * them. The fake's own conversions use another one, so nothing a client changes there changes what the fake
   * stores.
   *
   * @return a new client
   */
  public KubernetesClient newClient() {
    requireOpen("newClient()");
    return ClusterClients.newClient(server, transport,
        transport == ClientTransport.HTTP ? clientConfig() : null);
  }

  /**
   * How the clients of {@link #client()} and {@link #newClient()} reach this cluster.
   *
   * @return the transport chosen with {@link Builder#withClientTransport}
   * @since 0.1.0
   */
  public ClientTransport clientTransport() {
    return transport;
  }

  /**
   * A fabric8 HTTP client factory that reaches this cluster inside this JVM, without a socket, for clients you
   * build yourself. The master URL of their configuration is ignored; requests fail as a refused connection once
   * the cluster is closed.
   *
   * <pre>{@code
   * KubernetesClient client = new KubernetesClientBuilder()
   *     .withConfig(new ConfigBuilder(Config.empty()).withMasterUrl("http://fake.invalid").build())
   *     .withHttpClientFactory(cluster.httpClientFactory())
   *     .build();
   * }</pre>
   *
   * @return the factory (one per cluster)
   * @since 0.1.0
   */
  public HttpClient.Factory httpClientFactory() {
    return server.inProcess().factory();
  }

  /**
   * A client configuration for this cluster's HTTP listener (started if it is not yet), built from
   * {@link Config#empty()} so that no kubeconfig file, environment variable or system property of the machine
   * leaks in: master URL {@link #url()}, namespace {@code default}, no authentication, short timeouts and few
   * retries suited to tests.
   *
   * @return a new configuration
   * @throws dev.ctk.fake.values.FakeClusterException when the listener cannot start
   */
  public Config clientConfig() {
    return ClusterClients.config(url());
  }

  /**
   * The base URL of the HTTP listener, e.g. {@code http://127.0.0.1:45123}; the listener starts on the first call
   * when the cluster uses {@link ClientTransport#IN_PROCESS}. A closed cluster that never listened starts no
   * listener: it answers {@code http://ctk-fake-<n>.invalid}, the name its in-process clients used.
   *
   * @return the URL
   * @throws dev.ctk.fake.values.FakeClusterException when the listener cannot start
   */
  public String url() {
    if (!ClusterClients.listening(server, closed.get())) {
      return server.inProcess().masterUrl();
    }
    return server.url();
  }

  /**
   * The port the API server listens on (the listener starts on the first call, as for {@link #url()}).
   *
   * @return the port, or 0 for a closed cluster that never listened
   * @throws dev.ctk.fake.values.FakeClusterException when the listener cannot start
   */
  public int port() {
    return ClusterClients.listening(server, closed.get()) ? server.port() : 0;
  }

  /**
   * A kubeconfig for this cluster's HTTP listener (started if it is not yet): cluster, user and context all named
   * {@value #CONTEXT}, namespace {@code default}, no credentials.
   *
   * @return kubeconfig YAML
   * @throws dev.ctk.fake.values.FakeClusterException when the listener cannot start
   */
  public String kubeconfig() {
    return ClusterClients.kubeconfig(url());
  }

  /**
   * Writes {@link #kubeconfig()} to a file (parent directories are created).
   *
   * @param file where to write
   * @return {@code file}
   * @throws dev.ctk.fake.values.FakeClusterException when the file cannot be written
   */
  public Path writeKubeconfig(Path file) {
    return ClusterClients.write(file, kubeconfig());
  }

  /**
   * The Kubernetes minors {@link Builder#withKubernetesVersion(String)} accepts.
   *
   * <pre>{@code
   * FakeCluster.supportedKubernetesVersions();   // [1.32, 1.33, 1.34, 1.35, 1.36, 1.37]
   * }</pre>
   *
   * @return the minors, oldest first
   * @since 0.1.0
   */
  public static List<String> supportedKubernetesVersions() {
    return KubeMinor.supported();
  }

  /**
   * The Kubernetes minor version this fake emulates, as {@link Builder#withKubernetesVersion(String)} chose it.
   *
   * <pre>{@code
   * String minor = cluster.kubernetesVersion();   // "1.32" by default
   * }</pre>
   *
   * @return e.g. {@code "1.32"}
   * @since 0.1.0
   */
  public String kubernetesVersion() {
    return server.store().kubeMinor().toString();
  }

  /**
   * Injects events: through the store, or synthetic ones only watches see.
   *
   * @return the event injector of this cluster
   */
  public EventInjector events() {
    return events;
  }

  /**
   * Watch faults at this server: close or expire watches, drop, duplicate, delay, reorder or hold their events, and
   * the log of every watch delivery. The faults act on the server's watch streams, so real informers see them.
   *
   * <pre>{@code
   * HeldDelivery stale = cluster.watchFaults().hold(WatchPattern.kind("ConfigMap"));
   * }</pre>
   *
   * @return the watch faults of this cluster (a view: every call returns one over the same rules and log)
   * @since 0.1.0
   */
  public WatchFaults watchFaults() {
    return new WatchFaults(server, this::requireOpen);
  }

  /**
   * The API fault rules of this cluster, applied at the server to every request, in process or over HTTP (client
   * calls, informers' lists and watches). See {@link ApiFaults}.
   *
   * <pre>{@code
   * cluster.faults().when(RequestPattern.update("ConfigMap")).once().answer(ApiFault.conflict());
   * }</pre>
   *
   * @return the fault rules (a view; rules live as long as the cluster)
   * @since 0.1.0
   */
  public ApiFaults faults() {
    return new ApiFaults(server.faults());
  }

  /**
   * The request journal of this cluster: every API request it answered and every injected event. Still readable
   * after {@link #close()}. See {@link RequestJournal}.
   *
   * <pre>{@code
   * assertThat(cluster.requests().entries(RequestPattern.patch("ConfigMap").subresource("status"))).hasSize(1);
   * }</pre>
   *
   * @return the journal (a view)
   * @since 0.1.0
   */
  public RequestJournal requests() {
    return new RequestJournal(server.journal());
  }

  /**
   * Creates an object at run time through the store, exactly like {@link EventInjector#add}.
   *
   * @param object the object (namespace {@code default} when a namespaced object has none)
   * @param <T> its type
   * @return the stored object (with uid, resourceVersion, creationTimestamp), as the same class
   * @throws dev.ctk.fake.values.FakeClusterException when it exists already, its namespace or CRD is missing
   * @throws IllegalStateException when the cluster is closed
   */
  public <T extends HasMetadata> T create(T object) {
    requireOpen("create(..)");
    return events.add(object);
  }

  /**
   * Seeds objects from a YAML file at run time (multi-document YAML or a v1 List; CRDs in it are installed first,
   * then Namespaces, then the rest). The whole file is validated before anything is written.
   *
   * @param yaml the file
   * @return the stored objects, in the order written
   * @throws dev.ctk.fake.values.FakeClusterException for a missing file, malformed YAML, a kind without CRD, a missing namespace, ...
   */
  public List<HasMetadata> load(Path yaml) {
    requireOpen("load(..)");
    return toObjects(server.seed(SeedSources.file(yaml)));
  }

  /**
   * Seeds objects from a classpath resource at run time, like {@link #load(Path)}.
   *
   * @param resource resource name, e.g. {@code crds/network.yaml}
   * @return the stored objects, in the order written
   * @throws dev.ctk.fake.values.FakeClusterException for a missing resource, malformed YAML, ...
   */
  public List<HasMetadata> loadClasspathResource(String resource) {
    requireOpen("loadClasspathResource(..)");
    return toObjects(server.seed(SeedSources.classpath(resource)));
  }

  /**
   * Installs a CustomResourceDefinition: registers every served version (discovery included) and marks it
   * {@code NamesAccepted} and {@code Established}, as a real API server does shortly after the create. If a CRD of
   * that name exists it is replaced.
   *
   * @param crd the CRD
   * @throws dev.ctk.fake.values.FakeClusterException when the CRD is invalid (e.g. its name is not {@code <plural>.<group>})
   */
  public void installCrd(CustomResourceDefinition crd) {
    requireOpen("installCrd(..)");
    ObjectNode node = json.toJson(crd);
    String name = node.path("metadata").path("name").asText();
    if (server.store().exists(server.typeOf("installCrd", node), null, name)) {
      server.update("FakeCluster.installCrd", node);
    } else {
      server.create("FakeCluster.installCrd", node);
    }
  }

  /**
   * A snapshot of every stored object of every kind (built-in and custom), as copies, sorted by apiVersion, kind,
   * namespace (cluster-scoped first) and name; objects being deleted (with a {@code deletionTimestamp}) included.
   * Meant for end-state comparisons (of two runs of a test); it costs O(objects), every object copied, so do not
   * poll it. Readable after {@link #close()}. Example: {@code List<GenericKubernetesResource> end = cluster.objects();}
   *
   * @return the objects, in a new unmodifiable list
   * @since 0.1.0
   */
  public List<GenericKubernetesResource> objects() {
    return server.objects(json);
  }

  /**
   * The current global resourceVersion: that of the last committed change.
   *
   * @return the resourceVersion, as kube writes it (a decimal string)
   */
  public String resourceVersion() {
    return Long.toString(server.store().resourceVersion());
  }

  /**
   * Waits until the garbage collector and the namespace controller have nothing left to do: what a deletion or an
   * owner reference gave them has been done (dependents deleted or orphaned, owners that waited in the foreground
   * released, objects whose owners do not exist deleted, Terminating namespaces emptied and removed). It waits on a
   * condition the collector's thread signals, not by polling. Settled does not mean gone: an object a finalizer
   * holds stays (and so does a namespace holding one) until the finalizer is removed; then await again.
   *
   * <p>Time: {@code timeout} is real time, a bound on the waiting thread. The namespace controller starts
   * {@link Builder#withNamespaceDeletionGracePeriod a grace period} after a Namespace is deleted (5 seconds, as
   * kube's), on the cluster's {@link Builder#withTimeSource time source}: with the system time source this method
   * waits for it; with a {@code VirtualTime} it does not (the grace period ends only when the test advances the
   * clock: advance it, then await).
   *
   * <pre>{@code
   * client.apps().deployments().withName("web").delete();
   * cluster.awaitGarbageCollection(Duration.ofSeconds(5));
   * assertThat(client.apps().replicaSets().list().getItems()).isEmpty();
   * }</pre>
   *
   * @param timeout how long to wait at most
   * @throws dev.ctk.fake.values.FakeClusterException when work remains after {@code timeout}; the message lists it
   * @throws IllegalStateException when the cluster is closed, or runs no garbage collector
   *     ({@link GarbageCollection#OFF})
   * @since 0.1.0
   */
  public void awaitGarbageCollection(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    requireOpen("awaitGarbageCollection(..)");
    server.awaitGarbageCollection(timeout);
  }

  /**
   * Stops everything: the shared client, every open watch, the HTTP server and its threads. Idempotent. Clients
   * from {@link #newClient()} stay the caller's to close.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    KubernetesClient client;
    synchronized (this) {
      client = sharedClient;
      sharedClient = null;
    }
    try {
      if (client != null) {
        client.close();
      }
    } finally {
      server.close();
    }
  }

  /** For ctk's own tests and the launcher: the assembled server. Not part of the API. */
  FakeApiServer server() {
    return server;
  }

  private List<HasMetadata> toObjects(List<ObjectNode> nodes) {
    List<HasMetadata> out = new ArrayList<>();
    for (ObjectNode node : nodes) {
      out.add(json.toObject(node));
    }
    return out;
  }

  /** Fails every call that needs the running cluster (reads, writes, event injection) once it is closed. */
  private void requireOpen(String call) {
    if (closed.get()) {
      throw new IllegalStateException("FakeCluster at " + (server.httpStarted() ? server.url()
          : server.inProcess().masterUrl()) + " is closed; " + call + " needs a running cluster. Build a new one "
          + "with FakeCluster.builder()...build().");
    }
  }

  /**
   * Describes a {@link FakeCluster}; {@link #build()} starts it. Every {@code withX} adds to or replaces one
   * setting; misuse (a negative port, a seed file that does not exist, building twice) fails at once.
   *
   * <pre>{@code
   * FakeCluster cluster = FakeCluster.builder()
   *     .withCrds(networkCrd)
   *     .withClasspathResources("seed/networks.yaml")
   *     .withClock(Clock.fixed(Instant.parse("2025-01-01T00:00:00Z"), ZoneOffset.UTC))
   *     .build();
   * }</pre>
   *
   * @since 0.1.0
   */
  public static final class Builder {

    /** kube-apiserver's watch bookmark frequency: one BOOKMARK about every minute. */
    public static final Duration DEFAULT_BOOKMARK_INTERVAL = Duration.ofMinutes(1);

    private record NamedHook(String name, AdmissionHook hook) {
    }

    private String host = "127.0.0.1";
    private int port;
    private Clock clock = Clock.systemUTC();
    private ClientTransport clientTransport = ClientTransport.IN_PROCESS;
    private boolean listenerRequested;
    private int watchHistoryLimit = 10_000;
    private Long randomSeed;
    private GarbageCollection garbageCollection = GarbageCollection.ASYNCHRONOUS;
    private TimeSource timeSource = TimeSource.system();
    private boolean clockGiven;
    private Duration namespaceDeletionGracePeriod = CollectorSettings.KUBE_NAMESPACE_GRACE_PERIOD;
    private final List<CustomResourceDefinition> crds = new ArrayList<>();
    private final List<HasMetadata> objects = new ArrayList<>();
    private final List<List<SeedDocument>> files = new ArrayList<>();
    private final List<NamedHook> mutatingHooks = new ArrayList<>();
    private final List<NamedHook> validatingHooks = new ArrayList<>();
    private Duration bookmarkInterval = DEFAULT_BOOKMARK_INTERVAL;
    private KubeMinor kubernetesVersion = KubeMinor.DEFAULT;
    private boolean built;
    private boolean lazyListener;

    Builder() {}

    /**
     * The interface to listen on (default {@code 127.0.0.1}).
     *
     * @param host an IP address or host name
     * @return this builder
     */
    public Builder withHost(String host) {
      this.host = Objects.requireNonNull(host, "host");
      this.listenerRequested = true;
      return this;
    }

    /**
     * The port to listen on (default 0: a free port).
     *
     * @param port 0..65535
     * @return this builder
     */
    public Builder withPort(int port) {
      if (port < 0 || port > 65_535) {
        throw new IllegalArgumentException("port must be between 0 (a free port) and 65535, was " + port);
      }
      this.port = port;
      this.listenerRequested = true;
      return this;
    }

    /**
     * CustomResourceDefinitions to install before any object is seeded.
     *
     * @param crds the CRDs
     * @return this builder
     */
    public Builder withCrds(CustomResourceDefinition... crds) {
      this.crds.addAll(List.of(crds));
      return this;
    }

    /**
     * Objects to seed: fabric8 typed objects, or {@code GenericKubernetesResource} for custom kinds.
     *
     * @param objects the objects
     * @return this builder
     */
    public Builder withObjects(HasMetadata... objects) {
      this.objects.addAll(List.of(objects));
      return this;
    }

    /**
     * YAML files to seed (multi-document YAML or a v1 List). Read at once: a missing or malformed file fails here.
     *
     * @param files the files
     * @return this builder
     * @throws dev.ctk.fake.values.FakeClusterException when a file does not exist or is not valid YAML
     */
    public Builder withYaml(Path... files) {
      for (Path file : files) {
        this.files.add(SeedSources.file(file));
      }
      return this;
    }

    /**
     * Classpath resources to seed, like {@link #withYaml(Path...)}.
     *
     * @param resources resource names, e.g. {@code seed/networks.yaml}
     * @return this builder
     * @throws dev.ctk.fake.values.FakeClusterException when a resource does not exist or is not valid YAML
     */
    public Builder withClasspathResources(String... resources) {
      for (String resource : resources) {
        this.files.add(SeedSources.classpath(resource));
      }
      return this;
    }

    /**
     * The clock for the timestamps the server writes ({@code creationTimestamp}, {@code deletionTimestamp}, CRD
     * condition times). Default: the system clock in UTC.
     *
     * @param clock the clock
     * @return this builder
     */
    public Builder withClock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      this.clockGiven = true;
      return this;
    }

    /**
     * The time source of what the fake itself waits for: the namespace controller's grace period after a Namespace
     * is deleted ({@link #withNamespaceDeletionGracePeriod}). Default {@link TimeSource#system()}. Unless
     * {@link #withClock} is also given, the timestamps the server writes follow it too. With a {@code VirtualTime},
     * a deleted namespace is emptied only when the test advances the clock past the grace period, and
     * {@link FakeCluster#awaitGarbageCollection} does not wait for what the clock has not reached. Watch timeouts,
     * bookmarks and delayed requests stay on real time.
     *
     * <pre>{@code
     * VirtualTime time = VirtualTime.create();
     * FakeCluster cluster = FakeCluster.builder().withTimeSource(time).build();
     * client.namespaces().withName("team").delete();   // Terminating
     * time.advance(Duration.ofSeconds(5));             // the namespace controller's grace period ends
     * cluster.awaitGarbageCollection(Duration.ofSeconds(5));
     * }</pre>
     *
     * @param time the time source, e.g. a {@code VirtualTime}
     * @return this builder
     * @since 0.1.0
     */
    public Builder withTimeSource(TimeSource time) {
      this.timeSource = Objects.requireNonNull(time, "time");
      return this;
    }

    /**
     * How many committed changes watches can resume from (default 10,000). A watch from an older resourceVersion
     * receives a 410 Gone ERROR event, and informers relist.
     *
     * @param events at least 1
     * @return this builder
     */
    public Builder withWatchHistoryLimit(int events) {
      if (events < 1) {
        throw new IllegalArgumentException("watch history limit must be at least 1 event, was " + events);
      }
      this.watchHistoryLimit = events;
      return this;
    }

    /**
     * Seeds the random source for {@code generateName} suffixes and uids, so runs are reproducible.
     *
     * @param seed any value
     * @return this builder
     */
    public Builder withRandomSeed(long seed) {
      this.randomSeed = seed;
      return this;
    }

    /**
     * The Kubernetes minor version the fake emulates (default {@code 1.32}): {@code 1.32} to {@code 1.37}, written
     * {@code "1.34"}, {@code "v1.34"} or {@code "1.34.4"} (a patch is ignored; each minor behaves as its newest
     * patch). It sets what {@code /version} reports and the behaviours that changed between those minors, listed in
     * {@code docs/kubernetes-versions.md} with the contract scenario that checks each against a real server; for
     * example 1.34 prints a field error's value as JSON where 1.32 prints Go syntax, and 1.37 defaults a
     * StatefulSet's {@code maxUnavailable}. Everything else behaves alike in every minor.
     *
     * <pre>{@code
     * try (FakeCluster cluster = FakeCluster.builder().withKubernetesVersion("1.34").build()) {
     *   cluster.client().getKubernetesVersion().getMinor();   // "34"
     * }
     * }</pre>
     *
     * @param version the version, e.g. {@code "1.34"}
     * @return this builder
     * @throws IllegalArgumentException for a text that is not a version, or a minor the fake does not emulate (the
     *     message lists those it does)
     * @since 0.1.0
     */
    public Builder withKubernetesVersion(String version) {
      this.kubernetesVersion = KubeMinor.parse(version);
      return this;
    }

    /**
     * Whether the fake runs what kube-controller-manager does about deletions and owner references (default
     * {@code true}: {@link GarbageCollection#ASYNCHRONOUS}); {@code false} is {@link GarbageCollection#OFF}, a bare
     * kube-apiserver: dependents stay, an owner deleted with Foreground or Orphan keeps its
     * {@code foregroundDeletion} or {@code orphan} finalizer, and a deleted namespace stays Terminating.
     *
     * <pre>{@code
     * try (FakeCluster cluster = FakeCluster.builder().withGarbageCollection(false).build()) {
     *   // delete a Deployment: its ReplicaSets remain, as on an apiserver without controller-manager
     * }
     * }</pre>
     *
     * @param enabled {@code false} to switch garbage collection and namespace finalization off
     * @return this builder
     * @since 0.1.0
     */
    public Builder withGarbageCollection(boolean enabled) {
      return withGarbageCollection(enabled ? GarbageCollection.ASYNCHRONOUS : GarbageCollection.OFF);
    }

    /**
     * How the fake runs the ownerReference garbage collector and the namespace controller (default
     * {@link GarbageCollection#ASYNCHRONOUS}, as a cluster: after the request is answered, on the collector's own
     * thread; wait for it with {@link FakeCluster#awaitGarbageCollection}). {@link GarbageCollection#SYNCHRONOUS}
     * keeps the fake's earlier behaviour (everything done before the request is answered);
     * {@link GarbageCollection#OFF} mimics a bare kube-apiserver.
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder().withGarbageCollection(GarbageCollection.SYNCHRONOUS).build();
     * }</pre>
     *
     * @param mode the mode
     * @return this builder
     * @since 0.1.0
     */
    public Builder withGarbageCollection(GarbageCollection mode) {
      this.garbageCollection = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * How long after a Namespace is deleted the namespace controller starts emptying it (default 5 seconds, kube's
     * {@code namespaceDeletionGracePeriod}): until then the namespace is Terminating, its content is untouched and
     * creates in it answer 403. Measured on the {@link #withTimeSource time source}. {@link Duration#ZERO} starts at
     * once (still after the DELETE is answered); ignored with {@link GarbageCollection#SYNCHRONOUS} (no wait) and
     * {@link GarbageCollection#OFF} (no namespace controller).
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder().withNamespaceDeletionGracePeriod(Duration.ZERO).build();
     * }</pre>
     *
     * @param gracePeriod zero or more
     * @return this builder
     * @throws IllegalArgumentException when negative
     * @since 0.1.0
     */
    public Builder withNamespaceDeletionGracePeriod(Duration gracePeriod) {
      Objects.requireNonNull(gracePeriod, "gracePeriod");
      if (gracePeriod.isNegative()) {
        throw new IllegalArgumentException("namespace deletion grace period must be zero or more, was " + gracePeriod
            + ". Use Duration.ZERO to start emptying a deleted namespace at once, or leave kube's 5 seconds.");
      }
      this.namespaceDeletionGracePeriod = gracePeriod;
      return this;
    }

    /**
     * Adds a mutating admission hook: it sees every API write after defaulting and may change the object
     * ({@link dev.ctk.fake.values.AdmissionDecision#patch}) or deny the request, as a mutating admission webhook does. Hooks run in the
     * order they were added, all mutating ones before the server's validation and before any validating hook. See
     * {@link AdmissionHook} for when hooks run and what they must not do.
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder()
     *     .withMutatingAdmission("inject-team.example.com", request -> {
     *       if (request.operation() != AdmissionRequest.Operation.CREATE || !request.kind().equals("ConfigMap")) {
     *         return AdmissionDecision.allow();
     *       }
     *       GenericKubernetesResource object = request.object();
     *       object.getMetadata().setLabels(Map.of("team", "payments"));
     *       return AdmissionDecision.patch(object);
     *     })
     *     .build();
     * }</pre>
     *
     * @param name the webhook name kube prints in denials ({@code admission webhook "<name>" denied the request})
     * @param hook the hook
     * @return this builder
     * @throws IllegalArgumentException when the name is blank
     * @since 0.1.0
     */
    public Builder withMutatingAdmission(String name, AdmissionHook hook) {
      mutatingHooks.add(new NamedHook(hookName(name), Objects.requireNonNull(hook, "hook")));
      return this;
    }

    /**
     * Adds a validating admission hook: it sees every API write as it would be stored, after the server's own
     * validation, and may deny it, as a validating admission webhook does. Hooks run in the order they were added;
     * the first denial answers the request. See {@link AdmissionHook} for when hooks run and what they must not do.
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder()
     *     .withValidatingAdmission("protect-prod.example.com", request ->
     *         request.operation() == AdmissionRequest.Operation.DELETE && request.namespace().equals("prod")
     *             ? AdmissionDecision.deny("objects in prod cannot be deleted")
     *             : AdmissionDecision.allow())
     *     .build();
     * }</pre>
     *
     * @param name the webhook name kube prints in denials
     * @param hook the hook
     * @return this builder
     * @throws IllegalArgumentException when the name is blank
     * @since 0.1.0
     */
    public Builder withValidatingAdmission(String name, AdmissionHook hook) {
      validatingHooks.add(new NamedHook(hookName(name), Objects.requireNonNull(hook, "hook")));
      return this;
    }

    /**
     * How often a watch that asked for bookmarks ({@code allowWatchBookmarks=true}, as fabric8 and client-go
     * informers do) receives a BOOKMARK event carrying the current resourceVersion. Default
     * {@link #DEFAULT_BOOKMARK_INTERVAL} (one minute), as kube-apiserver; a watch with {@code timeoutSeconds} also gets
     * one about 2 seconds before it ends. Shorten it to test how a controller handles bookmarks.
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder().withBookmarkInterval(Duration.ofMillis(200)).build();
     * }</pre>
     *
     * @param interval positive
     * @return this builder
     * @throws IllegalArgumentException when the interval is zero or negative
     * @since 0.1.0
     */
    public Builder withBookmarkInterval(Duration interval) {
      Objects.requireNonNull(interval, "interval");
      if (interval.isZero() || interval.isNegative()) {
        throw new IllegalArgumentException("bookmark interval must be positive, was " + interval
            + ". Use a positive Duration such as Duration.ofSeconds(5).");
      }
      this.bookmarkInterval = interval;
      return this;
    }

    /**
     * Chooses how the clients of {@link FakeCluster#client()} and {@link FakeCluster#newClient()} reach the fake
     * (default {@link ClientTransport#IN_PROCESS}). With {@link ClientTransport#HTTP}, or after
     * {@link #withPort(int)} or {@link #withHost(String)}, {@link #build()} starts the HTTP listener, so a port
     * in use fails there; otherwise the listener starts on first use of {@link FakeCluster#url()} and the like.
     *
     * <pre>{@code
     * FakeCluster cluster = FakeCluster.builder().withClientTransport(ClientTransport.HTTP).build();
     * }</pre>
     *
     * @param transport the transport
     * @return this builder
     * @since 0.1.0
     */
    public Builder withClientTransport(ClientTransport transport) {
      this.clientTransport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    private static String hookName(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("an admission hook needs a name (kube prints it in denials: admission "
            + "webhook \"<name>\" denied the request), was " + (name == null ? "null" : "\"" + name + "\"")
            + ". Use a webhook-like name such as \"policy.example.com\".");
      }
      return name;
    }

    /**
     * Starts the cluster: seeds CRDs, then the objects and files (validated as a whole first), then listens when
     * the HTTP listener is wanted now (see {@link #withClientTransport}).
     *
     * @return the running cluster
     * @throws IllegalStateException when called twice
     * @throws dev.ctk.fake.values.FakeClusterException when seeding fails, the port is in use, or the host cannot be listened on
     */
    public FakeCluster build() {
      if (built) {
        throw new IllegalStateException("FakeCluster.Builder.build() was already called; a builder makes one "
            + "cluster. Use a new FakeCluster.builder() for another.");
      }
      built = true;
      ObjectJson json = new ObjectJson();
      FakeApiServer server = new FakeApiServer(host, port, clockGiven ? clock : TimeSourceClock.of(timeSource),
          watchHistoryLimit, randomSeed,
          new CollectorSettings(garbageCollection, timeSource, namespaceDeletionGracePeriod), kubernetesVersion);
      server.store().watchHub().bookmarkInterval(bookmarkInterval);
      mutatingHooks.forEach(h -> server.store().admission().hooks().addMutating(h.name(), h.hook()));
      validatingHooks.forEach(h -> server.store().admission().hooks().addValidating(h.name(), h.hook()));
      try {
        List<SeedDocument> seed = ClusterClients.seed(json, crds, objects, files);
        if (!seed.isEmpty()) {
          server.seed(seed);
        }
        if (clientTransport == ClientTransport.HTTP || (listenerRequested && !lazyListener)) {
          server.startHttp();
        }
      } catch (ListenException e) {
        server.close();
        throw ClusterClients.listenFailure(e);
      } catch (RuntimeException e) {
        server.close();
        throw e;
      }
      return new FakeCluster(server, json, clientTransport);
    }

    /** For ctk's own tests: keeps the listener lazy even after withPort/withHost, to test a failing lazy start. */
    Builder lazyListener() {
      this.lazyListener = true;
      return this;
    }
  }
}
