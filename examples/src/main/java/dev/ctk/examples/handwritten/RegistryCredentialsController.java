package dev.ctk.examples.handwritten;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A controller written by hand on fabric8, the way many are: an informer, a queue of {@code
 * "namespace/name"} keys, one worker thread. It turns registry credentials into an image pull
 * secret: every Secret labelled {@code examples.ctk.dev/registry-credentials=true} with the data keys
 * {@code server}, {@code username} and {@code password} gets a Secret {@code <name>-dockerconfig} of
 * type {@code kubernetes.io/dockerconfigjson}, controlled by it, that Pods can name in {@code
 * imagePullSecrets}. A changed password is carried over; a deleted source takes its
 * dockerconfig with it.
 *
 * <pre>{@code
 * RegistryCredentialsController controller = RegistryCredentialsController.create(client, "shop");
 * controller.start();
 * ...
 * controller.close();
 * }</pre>
 *
 * <p>It depends on fabric8 only. Its one seam for tests is the long constructor: the queue it puts
 * keys into, and a decorator that runs around each reconcile. ctk's {@code ControllerProbe} attaches
 * there, without other changes:
 *
 * <pre>{@code
 * new RegistryCredentialsController(client, namespace,
 *     probe.observe(new LinkedBlockingQueue<>()),
 *     (key, reconcile) -> probe.reconcile(key, reconcile::run));
 * }</pre>
 *
 * @since 0.1.0
 */
public final class RegistryCredentialsController implements AutoCloseable {

  /** The label that marks a Secret as registry credentials to turn into a dockerconfig. */
  public static final String CREDENTIALS_LABEL = "examples.ctk.dev/registry-credentials";
  /** The data keys a credentials Secret must carry. */
  public static final List<String> CREDENTIALS_KEYS = List.of("server", "username", "password");
  /** The suffix of the name of the dockerconfig Secret made from a credentials Secret. */
  public static final String DOCKERCONFIG_SUFFIX = "-dockerconfig";
  /** How often the informer replays every credentials Secret: the only retry of a failed reconcile. */
  public static final Duration RESYNC_PERIOD = Duration.ofMinutes(10);

  private static final System.Logger LOG =
      System.getLogger(RegistryCredentialsController.class.getName());
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

  private final KubernetesClient client;
  private final String namespace;
  private final BlockingQueue<String> queue;
  private final ReconcileDecorator decorator;
  private final SharedIndexInformer<Secret> credentials;
  private final Thread worker;
  private final AtomicBoolean started = new AtomicBoolean();

  /**
   * Builds the controller with every part given; production code uses {@link #create}.
   *
   * @param client a client for the cluster
   * @param namespace the namespace whose Secrets it watches and writes
   * @param queue the queue of {@code "namespace/name"} keys between the informer and the worker
   * @param decorator runs around each reconcile; it must call {@code reconcile.run()} once
   */
  public RegistryCredentialsController(KubernetesClient client, String namespace,
      BlockingQueue<String> queue, ReconcileDecorator decorator) {
    this.client = Objects.requireNonNull(client, "RegistryCredentialsController: client is null");
    this.namespace = Objects.requireNonNull(namespace,
        "RegistryCredentialsController: namespace is null");
    this.queue = Objects.requireNonNull(queue, "RegistryCredentialsController: queue is null");
    this.decorator = Objects.requireNonNull(decorator,
        "RegistryCredentialsController: decorator is null");
    this.credentials = client.secrets().inNamespace(namespace).withLabel(CREDENTIALS_LABEL, "true")
        .runnableInformer(RESYNC_PERIOD.toMillis());
    this.credentials.addEventHandler(new Enqueue());
    this.worker = new Thread(this::work, "registry-credentials-worker");
    this.worker.setDaemon(true);
  }

  /**
   * Builds the controller with an unbounded queue and nothing around its reconciles.
   *
   * @param client a client for the cluster
   * @param namespace the namespace whose Secrets it watches and writes
   * @return the controller, not started
   */
  public static RegistryCredentialsController create(KubernetesClient client, String namespace) {
    return new RegistryCredentialsController(client, namespace, new LinkedBlockingQueue<>(),
        (key, reconcile) -> reconcile.run());
  }

  /**
   * The informer of credentials Secrets, for instance to report whether its cache synced.
   *
   * @return the informer; it runs from {@link #start()} to {@link #close()}
   */
  public SharedIndexInformer<Secret> informer() {
    return credentials;
  }

  /**
   * Starts the informer, waits (up to 30s) until it has listed the credentials Secrets and opened its
   * watch, then starts the worker, which reconciles the listed Secrets first.
   *
   * @throws IllegalStateException if it was started before, or the informer did not start in time
   *     (it is left running: {@link #close()} stops it)
   */
  public void start() {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException(this + " was already started. Create a new controller to "
          + "start again.");
    }
    try {
      credentials.start().toCompletableFuture().get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException("The informer of " + this + " did not list and watch Secrets "
          + "labelled " + CREDENTIALS_LABEL + "=true within " + START_TIMEOUT.toSeconds() + "s. "
          + "Check that the API server is reachable.", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("The informer of " + this + " failed to start: "
          + e.getCause() + ". Check that the client may list and watch Secrets in namespace "
          + namespace + ".", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while starting " + this + ".", e);
    }
    worker.start();
  }

  /**
   * Whether the informer and the worker run.
   *
   * @return {@code true} from {@link #start()} to {@link #close()}
   */
  public boolean isRunning() {
    return worker.isAlive() && credentials.isRunning();
  }

  /**
   * Stops the informer, then the worker (interrupting a reconcile in progress), and waits up to 10s
   * for the worker to end. If the calling thread is interrupted meanwhile, it returns at once with
   * the thread's interrupt flag set.
   *
   * @throws IllegalStateException if the worker did not stop within 10s
   */
  @Override
  public void close() {
    credentials.stop();
    worker.interrupt();
    try {
      if (worker.getState() != Thread.State.NEW) {
        worker.join(STOP_TIMEOUT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (worker.isAlive()) {
      throw new IllegalStateException("The worker of " + this + " did not stop within "
          + STOP_TIMEOUT.toSeconds() + "s of an interrupt: a reconcile ignores interrupts. Its stack: "
          + List.of(worker.getStackTrace()));
    }
  }

  @Override
  public String toString() {
    return "RegistryCredentialsController for namespace " + namespace;
  }

  private void work() {
    while (!Thread.currentThread().isInterrupted()) {
      String key;
      try {
        key = queue.take();
      } catch (InterruptedException e) {
        return;
      }
      try {
        decorator.reconcile(key, () -> reconcile(key));
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // no retry queue: the next change of the Secret, or the resync, brings the key back
        LOG.log(System.Logger.Level.WARNING, "reconcile of Secret " + key + " failed: " + e);
      }
    }
  }

  /**
   * Makes the dockerconfig Secret of {@code key} match its credentials Secret, whatever event woke it.
   *
   * @param key {@code "namespace/name"} of a credentials Secret
   */
  void reconcile(String key) {
    String name = key.substring(key.indexOf('/') + 1);
    String dockerconfigName = name + DOCKERCONFIG_SUFFIX;
    Secret source = credentials.getStore().getByKey(key);
    Secret existing = client.secrets().inNamespace(namespace).withName(dockerconfigName).get();
    if (source == null) {
      if (existing != null && isControlledBy(existing, name)) {
        client.resource(existing).delete();
      }
      return;
    }
    Secret desired = dockerconfig(source);
    if (existing == null) {
      client.resource(desired).create();
    } else if (!isControlledBy(existing, name)) {
      throw new IllegalStateException("Secret " + namespace + "/" + dockerconfigName
          + " exists and is not controlled by Secret " + key
          + ". Delete it, or rename Secret " + key + ".");
    } else if (!Objects.equals(existing.getData(), desired.getData())
        || !Objects.equals(existing.getMetadata().getOwnerReferences(),
            desired.getMetadata().getOwnerReferences())) {
      // a changed password, or a source deleted and re-created under the same name (a new uid)
      client.secrets().inNamespace(namespace).withName(dockerconfigName)
          .edit(secret -> new SecretBuilder(secret).withData(desired.getData())
              .editMetadata().withOwnerReferences(desired.getMetadata().getOwnerReferences())
              .endMetadata().build());
    }
  }

  /** The dockerconfig Secret that {@code source} should have. */
  private static Secret dockerconfig(Secret source) {
    Map<String, String> data = source.getData() == null ? Map.of() : source.getData();
    String key = source.getMetadata().getNamespace() + "/" + source.getMetadata().getName();
    for (String required : CREDENTIALS_KEYS) {
      if (data.get(required) == null || data.get(required).isEmpty()) {
        throw new IllegalArgumentException("Secret " + key + " lacks the data key \"" + required
            + "\". Give it the keys " + CREDENTIALS_KEYS + ".");
      }
    }
    String username = decode(data.get("username"));
    String password = decode(data.get("password"));
    Map<String, String> auth = new LinkedHashMap<>();
    auth.put("username", username);
    auth.put("password", password);
    auth.put("auth", encode(username + ":" + password));
    String json = Serialization.asJson(Map.of("auths", Map.of(decode(data.get("server")), auth)));
    OwnerReference owner = new OwnerReferenceBuilder()
        .withApiVersion("v1").withKind("Secret")
        .withName(source.getMetadata().getName()).withUid(source.getMetadata().getUid())
        .withController(true)
        .build();
    return new SecretBuilder()
        .withNewMetadata()
          .withName(source.getMetadata().getName() + DOCKERCONFIG_SUFFIX)
          .withNamespace(source.getMetadata().getNamespace())
          .withOwnerReferences(owner)
        .endMetadata()
        .withType("kubernetes.io/dockerconfigjson")
        .withData(Map.of(".dockerconfigjson", encode(json)))
        .build();
  }

  private static boolean isControlledBy(Secret secret, String sourceName) {
    List<OwnerReference> owners = secret.getMetadata().getOwnerReferences();
    return owners != null && owners.stream().anyMatch(owner -> "Secret".equals(owner.getKind())
        && sourceName.equals(owner.getName()) && Boolean.TRUE.equals(owner.getController()));
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }

  private static String encode(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Runs around each reconcile of the controller: to time it, log it, or let a test observe it.
   *
   * <pre>{@code
   * ReconcileDecorator timed = (key, reconcile) -> {
   *   long start = System.nanoTime();
   *   reconcile.run();
   *   metrics.record(key, System.nanoTime() - start);
   * };
   * }</pre>
   *
   * @since 0.1.0
   */
  @FunctionalInterface
  public interface ReconcileDecorator {

    /**
     * Reconciles {@code key} by calling {@code reconcile.run()} once, with whatever this decorator
     * adds around it. What it throws is logged by the worker, which goes on with the next key.
     *
     * @param key {@code "namespace/name"} of a credentials Secret
     * @param reconcile the controller's reconcile of {@code key}
     * @throws Exception what the reconcile threw, or the decorator's own failure
     */
    void reconcile(String key, Runnable reconcile) throws Exception;
  }

  /** Puts the key of every added, updated (or resynced) and deleted credentials Secret in the queue. */
  private final class Enqueue implements ResourceEventHandler<Secret> {

    @Override
    public void onAdd(Secret secret) {
      queue.offer(Cache.metaNamespaceKeyFunc(secret));
    }

    @Override
    public void onUpdate(Secret oldSecret, Secret newSecret) {
      queue.offer(Cache.metaNamespaceKeyFunc(newSecret));
    }

    @Override
    public void onDelete(Secret secret, boolean finalStateUnknown) {
      queue.offer(Cache.metaNamespaceKeyFunc(secret));
    }
  }
}
