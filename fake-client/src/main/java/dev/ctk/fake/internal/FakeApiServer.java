package dev.ctk.fake.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.common.WriteOptions;
import dev.ctk.fake.internal.fault.FaultEngine;
import dev.ctk.fake.internal.gc.CollectorSettings;
import dev.ctk.fake.internal.gc.GarbageCollector;
import dev.ctk.fake.internal.http.FakeHttpServer;
import dev.ctk.fake.internal.http.ListenException;
import dev.ctk.fake.internal.http.RequestJournal;
import dev.ctk.fake.internal.http.RequestPipeline;
import dev.ctk.fake.internal.inprocess.InProcessTransport;
import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.seed.SeedDocument;
import dev.ctk.fake.internal.seed.SeedPlan;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.store.DeletePreconditions;
import dev.ctk.fake.internal.store.NameGenerator;
import dev.ctk.fake.internal.store.ObjectRules;
import dev.ctk.fake.internal.store.ObjectStore;
import dev.ctk.fake.internal.store.PropagationPolicy;
import dev.ctk.fake.internal.version.KubeMinor;
import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.FakeClusterException;
import dev.ctk.fake.values.GarbageCollection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The fake API server assembled: registry, store (with watch hub), fault rules, request journal, the request
 * pipeline both transports share, the in-process transport and the HTTP endpoint (started on demand), and the
 * cluster's timer. The public {@code FakeCluster} is a thin facade over it.
 *
 * <p>Seeding and event injection go through the same {@link ObjectStore} methods the HTTP verbs use, with
 * {@link WriteOptions#SEEDING} (status written as given, resourceVersion in the object ignored).
 */
public final class FakeApiServer implements AutoCloseable {

  /** Namespaces that exist in a new cluster, as in a fresh kube-apiserver. */
  public static final List<String> INITIAL_NAMESPACES =
      List.of("default", "kube-node-lease", "kube-public", "kube-system");

  /** How many entries the request journal keeps. */
  public static final int JOURNAL_LIMIT = 10_000;

  private final ResourceRegistry registry = new ResourceRegistry();
  private final ObjectStore store;
  private final RequestJournal journal = new RequestJournal(JOURNAL_LIMIT);
  private static final AtomicInteger CLUSTERS = new AtomicInteger();

  private final FaultEngine faults;
  private final String name = "ctk-fake-" + CLUSTERS.incrementAndGet();
  private final ScheduledThreadPoolExecutor timer;
  private final FakeHttpServer http;
  private final RequestPipeline pipeline;
  private final InProcessTransport inProcess;
  private final GarbageCollector collector;
  // startHttp() and close() decide under this object's lock, so a listener never starts behind a close
  private volatile boolean httpStarted;
  private volatile boolean closed;

  /**
   * Creates a server with the initial namespaces (not yet listening).
   *
   * @param host interface to bind
   * @param port port, 0 for a free one
   * @param clock timestamps
   * @param watchHistoryLimit changes retained for watch resumption
   * @param randomSeed seed for generated names and uids, or {@code null}
   * @param garbageCollection whether and how the ownerReference garbage collector and namespace controller run (as
   *     in a cluster with kube-controller-manager); {@link GarbageCollection#OFF} mimics a bare kube-apiserver
   */
  public FakeApiServer(String host, int port, Clock clock, int watchHistoryLimit, Long randomSeed,
      CollectorSettings garbageCollection, KubeMinor kubeMinor) {
    this.store = new ObjectStore(registry, new ObjectRules(new NameGenerator(randomSeed), clock), watchHistoryLimit,
        kubeMinor);
    ResourceType namespaces = type("v1", "Namespace");
    for (String name : INITIAL_NAMESPACES) {
      ObjectNode ns = JsonNodeFactory.instance.objectNode();
      ns.put("apiVersion", "v1").put("kind", "Namespace").putObject("metadata").put("name", name);
      ns.putObject("status").put("phase", "Active");
      store.create(namespaces, null, ns, WriteOptions.SEEDING);
    }
    this.collector = garbageCollection.mode() == GarbageCollection.OFF ? null
        : GarbageCollector.attachTo(store, garbageCollection, name + "-gc");
    this.faults = new FaultEngine(randomSeed == null ? 0 : randomSeed);
    // one daemon thread, started by the first task: watch timeouts, bookmarks, delayed requests
    this.timer = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, name + "-timer");
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
    this.pipeline = new RequestPipeline(store, journal, faults, timer, this::serverAddress);
    this.http = new FakeHttpServer(pipeline, host, port);
    this.inProcess = new InProcessTransport(pipeline, name);
  }

  /**
   * Starts the HTTP listener unless it runs already (idempotent).
   *
   * @throws ListenException when the port is in use or the host cannot be listened on
   * @throws IllegalStateException when the server is closed (a listener started then would never be stopped)
   */
  public synchronized void startHttp() throws ListenException {
    if (closed) {
      throw new IllegalStateException("Cannot start the HTTP listener of the fake API server " + name + ": it is "
          + "closed, and a listener started now would never be stopped. Build a new FakeCluster to get a URL.");
    }
    if (!httpStarted) {
      http.start();
      httpStarted = true;
    }
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /** Whether the HTTP listener was started. */
  public boolean httpStarted() {
    return httpStarted;
  }

  /** The cluster's name, {@code ctk-fake-<n>}: it names its threads and the in-process master URL's host. */
  public String name() {
    return name;
  }

  /** The in-process transport of this cluster. */
  public InProcessTransport inProcess() {
    return inProcess;
  }

  /** What discovery reports as the server's address: the listener's, or the in-process host before it starts. */
  private String serverAddress() {
    return httpStarted ? http.address() : name + ".invalid:80";
  }

  /** The store. */
  public ObjectStore store() {
    return store;
  }

  /**
   * Waits for the garbage collector to settle (see {@link GarbageCollector#awaitSettled}).
   *
   * @throws IllegalStateException when garbage collection is off
   * @throws FakeClusterException when work remains after {@code timeout}
   */
  public void awaitGarbageCollection(java.time.Duration timeout) {
    if (collector == null) {
      throw new IllegalStateException("FakeCluster " + name + " runs no garbage collector "
          + "(withGarbageCollection(GarbageCollection.OFF), or withGarbageCollection(false)), so there is nothing to "
          + "await: dependents of deleted owners and the content of deleted namespaces stay, as on a bare "
          + "kube-apiserver. Remove the call, or build the cluster with garbage collection.");
    }
    collector.awaitSettled(timeout, name);
  }

  /**
   * Every stored object of every kind as a {@code GenericKubernetesResource} copy, sorted by apiVersion, kind,
   * namespace (cluster-scoped objects first) and name.
   */
  public List<io.fabric8.kubernetes.api.model.GenericKubernetesResource> objects(ObjectJson json) {
    java.util.Comparator<ObjectNode> order = java.util.Comparator
        .comparing((ObjectNode o) -> o.path("apiVersion").asText())
        .thenComparing(o -> o.path("kind").asText())
        .thenComparing(o -> o.path("metadata").path("namespace").asText(""))
        .thenComparing(o -> o.path("metadata").path("name").asText());
    return store.objects().stream().map(dev.ctk.fake.internal.store.StoredObject::object).sorted(order)
        .map(o -> json.toObject(o, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class)).toList();
  }

  /** The served resources. */
  public ResourceRegistry registry() {
    return registry;
  }

  /** Answered requests. */
  public RequestJournal journal() {
    return journal;
  }

  /** The fault rules applied to every HTTP request. */
  public FaultEngine faults() {
    return faults;
  }

  /**
   * Runs an {@link dev.ctk.fake.EventInjector} call and records it in the journal (client
   * {@link ApiRequestRecord#INJECTOR}): its sequence is taken before it runs, and it runs in one store transaction
   * so that {@code changed} says exactly whether it committed a change, and the generation recorded is the one it
   * left.
   *
   * @param method the injector method, e.g. {@code add} or {@code emitDeleted}
   * @param object the object it was given
   * @param call the call
   * @return what the call returned
   */
  public <T> T inject(String method, ObjectNode object, Supplier<T> call) {
    long sequence = journal.receive();
    Instant time = Instant.now();
    int code = 0;
    boolean changed = false;
    Long[] generation = new Long[1];
    try {
      boolean[] moved = new boolean[1];
      T result = store.inTransaction(() -> {
        long before = store.resourceVersion();
        try {
          T done = call.get();
          generation[0] = storedGeneration(object);
          return done;
        } finally {
          moved[0] = store.resourceVersion() != before;
        }
      });
      changed = moved[0];
      code = method.equals("add") ? 201 : 200;
      return result;
    } catch (FakeClusterException e) {
      code = e.getCause() instanceof ApiError error ? error.code() : 400;
      throw e;
    } finally {
      journal.add(new RequestJournal.Entry(injected(sequence, time, method, object, code, changed,
          generation[0]), "", "", "", "injected"));
    }
  }

  private ApiRequestRecord injected(long sequence, Instant time, String method, ObjectNode object, int code,
      boolean changed, Long generation) {
    String kind = object.path("kind").asText("");
    ResourceType type = typeOf(object);
    String namespace = namespaceOf(object, type);
    String name = object.path("metadata").path("name").asText("");
    return ApiRequestRecord.builder().sequence(sequence).time(time).verb(method).kind(kind.isEmpty() ? null : kind)
        .resource(type == null ? null : type.plural()).namespace(namespace.isEmpty() ? null : namespace)
        .name(name.isEmpty() ? null : name).client(ApiRequestRecord.INJECTOR).code(code).changed(changed)
        .generation(generation).build();
  }

  private ResourceType typeOf(ObjectNode object) {
    return registry.byKind(object.path("apiVersion").asText(""), object.path("kind").asText("")).orElse(null);
  }

  /** The namespace an injected object lands in: none for cluster-scoped kinds, {@code default} when unset. */
  private static String namespaceOf(ObjectNode object, ResourceType type) {
    String namespace = object.path("metadata").path("namespace").asText("");
    if (type != null && !type.namespaced()) {
      return "";
    }
    return type != null && namespace.isEmpty() ? "default" : namespace;
  }

  /** {@code metadata.generation} of the stored object an injected event names, or {@code null}. */
  private Long storedGeneration(ObjectNode object) {
    ResourceType type = typeOf(object);
    String name = object.path("metadata").path("name").asText("");
    if (type == null || name.isEmpty()) {
      return null;
    }
    String namespace = namespaceOf(object, type);
    String ns = namespace.isEmpty() ? null : namespace;
    if (!store.exists(type, ns, name)) {
      return null;
    }
    JsonNode generation = store.get(type, ns, name).path("metadata").path("generation");
    return generation.isIntegralNumber() ? generation.asLong() : null;
  }

  /** {@code http://host:port} of the HTTP listener (started). */
  public String url() {
    String host = http.host().contains(":") ? "[" + http.host() + "]" : http.host();
    return "http://" + host + ":" + http.port();
  }

  /** The bound port of the HTTP listener (started). */
  public int port() {
    return http.port();
  }

  /**
   * Validates a batch, then writes it (CRDs, then Namespaces, then the rest), all in one store transaction: no
   * concurrent writer can change the cluster between the validation and the writes, or between two writes.
   *
   * @return the stored objects, in write order
   */
  public List<ObjectNode> seed(List<SeedDocument> documents) {
    return store.inTransaction(() -> {
      SeedPlan plan = SeedPlan.of(documents, store);
      List<ObjectNode> created = new ArrayList<>();
      List<ResourceType> createdTypes = new ArrayList<>();
      for (SeedPlan.Entry entry : plan.entries()) {
        ResourceType type = registry.byKind(entry.apiVersion(), entry.kind()).orElseThrow();
        try {
          created.add(store.create(type, entry.namespace(), entry.document().object(), WriteOptions.SEEDING));
          createdTypes.add(type);
        } catch (ApiError e) {
          for (int i = created.size() - 1; i >= 0; i--) {
            store.rollBack(createdTypes.get(i), created.get(i));
          }
          throw new FakeClusterException("Cannot seed the fake cluster: " + entry.document().where() + " ("
              + entry.document().identity() + ") was rejected by the API server: " + e.code() + " " + e.reason()
              + ": " + e.getMessage() + ". " + rolledBack(created.size()) + "Fix that object and seed the "
              + "batch again.", e);
        }
      }
      return created;
    });
  }

  /** Creates one object through the store (EventInjector.add, FakeCluster.create). */
  public ObjectNode create(String operation, ObjectNode object) {
    ResourceType type = typeOf(operation, object);
    return call(operation, object, () -> store.create(type, namespaceOf(type, object), object, WriteOptions.SEEDING));
  }

  /** Replaces one object unconditionally through the store (EventInjector.update). */
  public ObjectNode update(String operation, ObjectNode object) {
    ResourceType type = typeOf(operation, object);
    String name = object.path("metadata").path("name").asText();
    return call(operation, object, () -> store.update(type, namespaceOf(type, object), name, object, null,
        WriteOptions.SEEDING));
  }

  /** Deletes one object with API semantics through the store (EventInjector.delete). */
  public ObjectNode delete(String operation, ObjectNode object) {
    ResourceType type = typeOf(operation, object);
    String name = object.path("metadata").path("name").asText();
    // no policy, as a DELETE without one: the object's own policy finalizers and its kind's default decide
    return call(operation, object, () -> store.delete(type, namespaceOf(type, object), name,
        DeletePreconditions.NONE, WriteOptions.SEEDING, PropagationPolicy.UNSET).object());
  }

  /**
   * Sends a synthetic watch event (not stored, not in history).
   *
   * @param resourceVersion the resourceVersion the event carries, or {@code null} for the larger of the object's
   *     own and the current global one
   */
  public void emit(String operation, String eventType, ObjectNode object, String resourceVersion) {
    ResourceType type = typeOf(operation, object);
    ObjectNode copy = object.deepCopy();
    if (type.namespaced() && copy.path("metadata") instanceof ObjectNode meta
        && meta.path("namespace").asText("").isEmpty()) {
      meta.put("namespace", "default");
    }
    call(operation, object, () -> {
      store.emitSynthetic(type, eventType, copy, resourceVersion);
      return null;
    });
  }

  /** The resource type of an object, or a FakeClusterException naming the missing CRD. */
  public ResourceType typeOf(String operation, ObjectNode object) {
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    return registry.byKind(apiVersion, kind).orElseThrow(() -> new FakeClusterException(operation + "("
        + identity(object) + ") failed: kind " + kind + " in " + apiVersion + " is not served: no "
        + "CustomResourceDefinition defines it. Install the CRD first (FakeCluster.installCrd(..) or "
        + "FakeCluster.builder().withCrds(..)), or fix apiVersion/kind."));
  }

  /**
   * Stops (idempotent): in-process requests are refused and the HTTP listener can no longer start, every watch is
   * closed and new ones are refused (they end at once), requests a Delay fault holds are dropped, the in-process
   * deliveries finish (each watch's close first), then the HTTP server and the timer stop, so no watch can stay
   * registered behind a closed server, no client waits for an answer that will not come, and no thread of the
   * cluster is left.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    inProcess.refuseRequests();
    try {
      if (collector != null) {
        collector.close();
      }
      store.closeWatches();
      pipeline.dropDelayedRequests();
      inProcess.close();
      http.close();
    } finally {
      timer.shutdownNow();
      try {
        timer.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      // a request delayed while the cluster was closing (its timer refused it, or never fired)
      pipeline.dropDelayedRequests();
    }
  }

  private static String rolledBack(int count) {
    if (count == 0) {
      return "Nothing of this batch was written. ";
    }
    return "Nothing of this batch was kept: the " + (count == 1 ? "object" : count + " objects") + " written "
        + "before it " + (count == 1 ? "was" : "were") + " removed again (open watches saw "
        + (count == 1 ? "it" : "them") + " come and go). ";
  }

  private static String namespaceOf(ResourceType type, ObjectNode object) {
    if (!type.namespaced()) {
      return null;
    }
    String ns = object.path("metadata").path("namespace").asText("");
    return ns.isEmpty() ? "default" : ns;
  }

  private ResourceType type(String apiVersion, String kind) {
    return registry.byKind(apiVersion, kind).orElseThrow();
  }

  private static ObjectNode call(String operation, ObjectNode object, java.util.function.Supplier<ObjectNode> call) {
    try {
      return call.get();
    } catch (ApiError e) {
      throw new FakeClusterException(operation + "(" + identity(object) + ") failed: " + e.code() + " "
          + e.reason() + ": " + e.getMessage() + fixFor(operation, e), e);
    }
  }

  private static String fixFor(String operation, ApiError e) {
    if (e.reason().equals("AlreadyExists")) {
      return ". Use update(..) to replace the existing object, or choose another name.";
    }
    if (e.reason().equals("NotFound") && e.getMessage().startsWith("namespaces \"")) {
      return ". Create the namespace first (a Namespace object).";
    }
    if (e.reason().equals("NotFound")) {
      return operation.endsWith("delete") ? ". It is already gone." : ". Create it first with add(..).";
    }
    return ".";
  }

  static String identity(ObjectNode object) {
    String kind = object.path("kind").asText("<no kind>");
    String ns = object.path("metadata").path("namespace").asText("");
    String name = object.path("metadata").path("name").asText("");
    return kind + " " + (ns.isEmpty() ? name : ns + "/" + name);
  }
}
