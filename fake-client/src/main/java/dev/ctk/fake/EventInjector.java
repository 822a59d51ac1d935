package dev.ctk.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.FakeApiServer;
import dev.ctk.fake.internal.ObjectJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Injects events into a {@link FakeCluster}, in two flavours.
 *
 * <p><b>Through the store</b> ({@link #add}, {@link #update}, {@link #delete}): the normal path, exactly as if a
 * client had called the API. The write gets the next global resourceVersion, the usual metadata rules (uid,
 * creationTimestamp, generation, finalizers) and a place in the watch history; every open watch and informer whose
 * selectors match sees it once, in commit order; GET and LIST return the new state. Two differences from an API
 * request, both to make seeding easy: {@code status} is written as given even on kinds with a status subresource,
 * and a {@code metadata.resourceVersion} in the object is ignored.
 *
 * <p><b>Synthetic</b> ({@link #emitAdded}, {@link #emitModified}, {@link #emitDeleted}): a watch event that the
 * store never saw, to simulate a watch stream that lies. Nothing is stored and the resourceVersion counter does not
 * move; the event is not in the watch history, so a watch resuming later never replays it. It is delivered to every
 * watch open right now whose kind, namespace and label/field selectors match the object. Informer caches (and their
 * event handlers) change accordingly, but GET and LIST still answer the store's state. The cache stays wrong until
 * the informer relists, and a fabric8 informer relists only when its watch fails with 410 Gone (or its reconnect
 * fails), not on an ordinary re-watch: a later committed change to the same object does correct it.
 *
 * <p>The event carries the larger of the object's own resourceVersion and the current global one, so the informer's
 * last seen resourceVersion never moves back. To simulate a lagging or rewound stream, pass a resourceVersion
 * explicitly ({@link #emitModified(HasMetadata, String)} and its siblings). Note that fabric8 informers update their
 * cache but do not call {@code onUpdate} when a MODIFIED event carries the resourceVersion the cache already holds:
 * to make handlers fire after emitting at the current resourceVersion, commit some later write first, or pass a
 * resourceVersion explicitly.
 *
 * <table>
 *   <caption>Effect of each method</caption>
 *   <tr><th>method</th><th>store (GET/LIST)</th><th>resourceVersion</th><th>watch history</th>
 *       <th>open watches / informers</th></tr>
 *   <tr><td>add</td><td>created</td><td>+1</td><td>ADDED recorded</td><td>ADDED</td></tr>
 *   <tr><td>update</td><td>replaced (no-op if nothing changed; removed if it drops the last finalizer of an object
 *       being deleted)</td><td>+1 (0 if no-op)</td><td>MODIFIED (or DELETED) recorded</td>
 *       <td>MODIFIED (or DELETED; none if no-op)</td></tr>
 *   <tr><td>delete</td><td>removed, or kept with deletionTimestamp if it has finalizers; no-op if it is already
 *       being deleted</td><td>+1 (0 if no-op)</td><td>DELETED (or MODIFIED) recorded</td>
 *       <td>DELETED (or MODIFIED; none if no-op)</td></tr>
 *   <tr><td>emitAdded / emitModified / emitDeleted</td><td>unchanged</td><td>unchanged</td><td>not recorded</td>
 *       <td>ADDED / MODIFIED / DELETED</td></tr>
 * </table>
 *
 * <pre>{@code
 * ConfigMap web = cluster.events().add(configMap("web"));   // informers see ADDED; GET finds it
 * cluster.events().emitDeleted(web);                       // informers drop it; GET still finds it
 * }</pre>
 *
 * <p>Every method fails with {@link IllegalStateException} once the cluster is closed. Every call on a
 * {@link FakeCluster}'s injector is recorded in its {@link FakeCluster#requests() request journal} (see
 * {@link RequestJournal#injections()}), with client {@link dev.ctk.fake.values.ApiRequestRecord#INJECTOR}.
 *
 * <p>The same type serves tests that run against a real kube-apiserver (ctk's JUnit extension in envtest, container
 * or existing-cluster mode): there {@link #add}, {@link #update} and {@link #delete} write through the API, and the
 * synthetic {@code emit*} methods fail, because a real server cannot send a watch event for an object it does not
 * store. Such injectors are made with {@link #of(Target)}.
 *
 * @since 0.1.0
 */
public final class EventInjector {

  private final Target target;

  EventInjector(FakeApiServer server, ObjectJson json, Consumer<String> requireOpen) {
    this.target = new FakeTarget(server, json, requireOpen);
  }

  private EventInjector(Target target) {
    this.target = target;
  }

  /**
   * An event injector that sends every call to {@code target}: how ctk's JUnit extension injects events against
   * a real kube-apiserver (add, update and delete write through the API; the synthetic {@code emit*} methods fail,
   * since a real server cannot send a watch event for an object it does not store). A {@link FakeCluster}'s own
   * injector is {@link FakeCluster#events()}.
   *
   * <pre>{@code
   * EventInjector events = EventInjector.of(new EventInjector.Target() { ... });
   * }</pre>
   *
   * @param target where the calls go
   * @return an injector over {@code target}
   * @since 0.1.0
   */
  public static EventInjector of(Target target) {
    return new EventInjector(Objects.requireNonNull(target, "target"));
  }

  /**
   * Creates the object through the store (API create semantics; namespace {@code default} when a namespaced
   * object has none).
   *
   * @param object the object
   * @param <T> its type
   * @return the stored object, as the same class
   * @throws dev.ctk.fake.values.FakeClusterException 409 AlreadyExists, missing namespace, missing CRD
   * @throws IllegalStateException when the cluster is closed
   */
  public <T extends HasMetadata> T add(T object) {
    return target.add(Objects.requireNonNull(object, "object"));
  }

  /**
   * Replaces the object through the store, unconditionally: its resourceVersion is ignored. An update that changes
   * nothing is a no-op (no new resourceVersion, no event), as in kube-apiserver. An update that removes the last
   * finalizer of an object being deleted removes it, as kube does: the update's other changes are not stored,
   * watches see DELETED carrying the last stored state (selected on that state), and the object returned is the one
   * the update asked for, at its previous resourceVersion.
   *
   * @param object the new state
   * @param <T> its type
   * @return the stored object (or, when the update removed it, the object as updated), as the same class
   * @throws dev.ctk.fake.values.FakeClusterException when the object does not exist
   * @throws IllegalStateException when the cluster is closed
   */
  public <T extends HasMetadata> T update(T object) {
    return target.update(Objects.requireNonNull(object, "object"));
  }

  /**
   * Deletes the object through the store with API semantics: without finalizers it is removed (DELETED); with
   * finalizers it gets {@code deletionTimestamp} and stays (MODIFIED) until an update removes the last one. Deleting
   * an object that is already being deleted changes nothing.
   *
   * @param object the object (kind, namespace and name are used)
   * @throws dev.ctk.fake.values.FakeClusterException when the object does not exist
   * @throws IllegalStateException when the cluster is closed
   */
  public void delete(HasMetadata object) {
    target.delete(Objects.requireNonNull(object, "object"));
  }

  /**
   * Sends a synthetic ADDED event to matching open watches, at the larger of the object's resourceVersion and the
   * current global one; the store is not changed.
   *
   * @param object the object the event carries
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitAdded(HasMetadata object) {
    emit("emitAdded", "ADDED", object, null);
  }

  /**
   * Sends a synthetic MODIFIED event to matching open watches, at the larger of the object's resourceVersion and
   * the current global one; the store is not changed.
   *
   * @param object the object the event carries
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitModified(HasMetadata object) {
    emit("emitModified", "MODIFIED", object, null);
  }

  /**
   * Sends a synthetic DELETED event to matching open watches, at the larger of the object's resourceVersion and
   * the current global one; the store is not changed.
   *
   * @param object the object the event carries
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitDeleted(HasMetadata object) {
    emit("emitDeleted", "DELETED", object, null);
  }

  /**
   * Sends a synthetic ADDED event carrying exactly {@code resourceVersion}; see
   * {@link #emitModified(HasMetadata, String)} for what that does to an informer.
   *
   * @param object the object the event carries
   * @param resourceVersion the resourceVersion the event carries, as given
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitAdded(HasMetadata object, String resourceVersion) {
    emit("emitAdded", "ADDED", object, Objects.requireNonNull(resourceVersion, "resourceVersion"));
  }

  /**
   * Sends a synthetic MODIFIED event carrying exactly {@code resourceVersion}, to simulate a lagging or rewound
   * stream. An informer stores the object with that resourceVersion and records it as its last seen version
   * ({@code lastSyncResourceVersion}). Nothing else happens until its watch reconnects ({@code timeoutSeconds}
   * elapsed, the connection dropped); the re-watch starts from that version, so:
   *
   * <ul>
   *   <li>older than the current global one, but still in the watch history: the fake replays every committed
   *       change after it, and the informer receives again changes it already had (its handlers see older states,
   *       then the same updates a second time);
   *   <li>older than the retained history: the re-watch fails with 410 Gone and the informer relists (its cache
   *       is then correct again);
   *   <li>newer than the current global one: the re-watch is accepted and stays silent until the cluster passes
   *       that version, as kube's watch cache serves it; changes committed up to it are never delivered.
   * </ul>
   *
   * @param object the object the event carries
   * @param resourceVersion the resourceVersion the event carries, as given
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitModified(HasMetadata object, String resourceVersion) {
    emit("emitModified", "MODIFIED", object, Objects.requireNonNull(resourceVersion, "resourceVersion"));
  }

  /**
   * Sends a synthetic DELETED event carrying exactly {@code resourceVersion}; see
   * {@link #emitModified(HasMetadata, String)} for what that does to an informer.
   *
   * @param object the object the event carries
   * @param resourceVersion the resourceVersion the event carries, as given
   * @throws IllegalStateException when the cluster is closed
   */
  public void emitDeleted(HasMetadata object, String resourceVersion) {
    emit("emitDeleted", "DELETED", object, Objects.requireNonNull(resourceVersion, "resourceVersion"));
  }

  private void emit(String method, String eventType, HasMetadata object, String resourceVersion) {
    target.emit(method, eventType, Objects.requireNonNull(object, "object"), resourceVersion);
  }

  /**
   * Where an {@link EventInjector} sends its calls: the fake's store and watch fan-out (for
   * {@link FakeCluster#events()}), or a real API server (ctk's JUnit extension in envtest, container and
   * existing-cluster modes). Implementations are thread-safe and document which methods they support; a method
   * they cannot honour throws {@link UnsupportedOperationException} with a message that says why and what to do
   * instead.
   *
   * @since 0.1.0
   */
  public interface Target {

    /**
     * Creates the object; see {@link EventInjector#add}.
     *
     * @param object the object (never null)
     * @param <T> its type
     * @return the stored object, as the same class
     */
    <T extends HasMetadata> T add(T object);

    /**
     * Replaces the object; see {@link EventInjector#update}.
     *
     * @param object the new state (never null)
     * @param <T> its type
     * @return the stored object, as the same class
     */
    <T extends HasMetadata> T update(T object);

    /**
     * Deletes the object; see {@link EventInjector#delete}.
     *
     * @param object the object (never null)
     */
    void delete(HasMetadata object);

    /**
     * Sends a synthetic watch event that the store never saw; see {@link EventInjector#emitModified(HasMetadata,
     * String)}.
     *
     * @param method the {@code EventInjector} method called, e.g. {@code emitDeleted}, for messages
     * @param eventType {@code ADDED}, {@code MODIFIED} or {@code DELETED}
     * @param object the object the event carries (never null)
     * @param resourceVersion the resourceVersion the event carries, or {@code null} for the larger of the
     *     object's and the current one
     */
    void emit(String method, String eventType, HasMetadata object, String resourceVersion);
  }

  /** The fake's own target: the store of one FakeCluster. */
  private static final class FakeTarget implements Target {

    private final FakeApiServer server;
    private final ObjectJson json;
    private final Consumer<String> requireOpen;

    FakeTarget(FakeApiServer server, ObjectJson json, Consumer<String> requireOpen) {
      this.server = server;
      this.json = json;
      this.requireOpen = requireOpen;
    }

    @Override
    public <T extends HasMetadata> T add(T object) {
      requireOpen.accept("EventInjector.add(..)");
      ObjectNode node = json.toJson(object);
      return back(object, server.inject("add", node, () -> server.create("EventInjector.add", node)));
    }

    @Override
    public <T extends HasMetadata> T update(T object) {
      requireOpen.accept("EventInjector.update(..)");
      ObjectNode node = json.toJson(object);
      return back(object, server.inject("update", node, () -> server.update("EventInjector.update", node)));
    }

    @Override
    public void delete(HasMetadata object) {
      requireOpen.accept("EventInjector.delete(..)");
      ObjectNode node = json.toJson(object);
      server.inject("delete", node, () -> server.delete("EventInjector.delete", node));
    }

    @Override
    public void emit(String method, String eventType, HasMetadata object, String resourceVersion) {
      requireOpen.accept("EventInjector." + method + "(..)");
      ObjectNode node = json.toJson(object);
      server.inject(method, node, () -> {
        server.emit("EventInjector." + method, eventType, node, resourceVersion);
        return null;
      });
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> T back(T original, ObjectNode stored) {
      return (T) json.toObject(stored, original.getClass());
    }
  }
}
