package dev.ctk.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.FakeApiServer;
import dev.ctk.fake.internal.ObjectJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

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
 * store never saw, to simulate a watch stream that lies or lags. Nothing is stored and the resourceVersion counter
 * does not move; the event is not in the watch history, so a watch resuming later never replays it. It is delivered
 * to every watch open right now whose kind, namespace and label/field selectors match the object. Informer caches
 * (and their event handlers) change accordingly, but GET and LIST still answer the store's state, so an informer
 * relist "heals" the cache. The event carries the object's own resourceVersion if it has one, else the current
 * global resourceVersion (informers record it as their last seen version). Note that fabric8 informers update
 * their cache but do not call {@code onUpdate} when a MODIFIED event carries the resourceVersion the cache already
 * holds: to make handlers fire, clear the object's resourceVersion (after some later write) or set a new one.
 *
 * <table>
 *   <caption>Effect of each method</caption>
 *   <tr><th>method</th><th>store (GET/LIST)</th><th>resourceVersion</th><th>watch history</th>
 *       <th>open watches / informers</th></tr>
 *   <tr><td>add</td><td>created</td><td>+1</td><td>ADDED recorded</td><td>ADDED</td></tr>
 *   <tr><td>update</td><td>replaced (no-op if nothing changed)</td><td>+1 (0 if no-op)</td>
 *       <td>MODIFIED recorded</td><td>MODIFIED (none if no-op)</td></tr>
 *   <tr><td>delete</td><td>removed, or kept with deletionTimestamp if it has finalizers</td><td>+1</td>
 *       <td>DELETED (or MODIFIED) recorded</td><td>DELETED (or MODIFIED)</td></tr>
 *   <tr><td>emitAdded / emitModified / emitDeleted</td><td>unchanged</td><td>unchanged</td><td>not recorded</td>
 *       <td>ADDED / MODIFIED / DELETED</td></tr>
 * </table>
 *
 * <pre>{@code
 * ConfigMap web = cluster.events().add(configMap("web"));   // informers see ADDED; GET finds it
 * cluster.events().emitDeleted(web);                       // informers drop it; GET still finds it
 * }</pre>
 *
 * @since 0.1.0
 */
public final class EventInjector {

  private final FakeApiServer server;
  private final ObjectJson json;

  EventInjector(FakeApiServer server, ObjectJson json) {
    this.server = server;
    this.json = json;
  }

  /**
   * Creates the object through the store (API create semantics; namespace {@code default} when a namespaced
   * object has none).
   *
   * @param object the object
   * @param <T> its type
   * @return the stored object, as the same class
   * @throws FakeClusterException 409 AlreadyExists, missing namespace, missing CRD
   */
  public <T extends HasMetadata> T add(T object) {
    return back(object, server.create("EventInjector.add", toJson(object)));
  }

  /**
   * Replaces the object through the store, unconditionally: its resourceVersion is ignored. An update that changes
   * nothing is a no-op (no new resourceVersion, no event), as in kube-apiserver. Removing the last finalizer of an
   * object being deleted removes it (DELETED).
   *
   * @param object the new state
   * @param <T> its type
   * @return the stored object, as the same class
   * @throws FakeClusterException when the object does not exist
   */
  public <T extends HasMetadata> T update(T object) {
    return back(object, server.update("EventInjector.update", toJson(object)));
  }

  /**
   * Deletes the object through the store with API semantics: without finalizers it is removed (DELETED); with
   * finalizers it gets {@code deletionTimestamp} and stays (MODIFIED) until an update removes the last one.
   *
   * @param object the object (kind, namespace and name are used)
   * @throws FakeClusterException when the object does not exist
   */
  public void delete(HasMetadata object) {
    server.delete("EventInjector.delete", toJson(object));
  }

  /**
   * Sends a synthetic ADDED event to matching open watches; the store is not changed.
   *
   * @param object the object the event carries
   */
  public void emitAdded(HasMetadata object) {
    server.emit("EventInjector.emitAdded", "ADDED", toJson(object));
  }

  /**
   * Sends a synthetic MODIFIED event to matching open watches; the store is not changed.
   *
   * @param object the object the event carries
   */
  public void emitModified(HasMetadata object) {
    server.emit("EventInjector.emitModified", "MODIFIED", toJson(object));
  }

  /**
   * Sends a synthetic DELETED event to matching open watches; the store is not changed.
   *
   * @param object the object the event carries
   */
  public void emitDeleted(HasMetadata object) {
    server.emit("EventInjector.emitDeleted", "DELETED", toJson(object));
  }

  private ObjectNode toJson(HasMetadata object) {
    return json.toJson(Objects.requireNonNull(object, "object"));
  }

  @SuppressWarnings("unchecked")
  private <T extends HasMetadata> T back(T original, ObjectNode stored) {
    return (T) json.toObject(stored, original.getClass());
  }
}
