package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watched informer of a controller: filters its events with predicates, maps them to keys with the
 * handler and queues the keys. Remembers whether the controller started (and so owns) the informer.
 */
final class InformerSource<T extends HasMetadata> {

  private static final Logger LOG = LoggerFactory.getLogger(InformerSource.class);

  private final SharedIndexInformer<T> informer;
  private final EventHandler<T> handler;
  private final List<EventPredicate<T>> predicates;
  private volatile ResourceEventHandler<T> registered;
  private volatile CompletableFuture<Void> startFuture;

  InformerSource(SharedIndexInformer<T> informer, EventHandler<T> handler,
      List<EventPredicate<T>> predicates) {
    this.informer = informer;
    this.handler = handler;
    this.predicates = List.copyOf(predicates);
  }

  SharedIndexInformer<T> informer() {
    return informer;
  }

  /** The informer's kind for messages, e.g. "ConfigMap". */
  String kind() {
    Class<T> type = informer.getApiTypeClass();
    return type == null ? "unknown kind" : type.getSimpleName();
  }

  void register(WorkQueue<ObjectKey> queue, String controllerName) {
    registered = new Enqueuer(queue, controllerName);
    informer.addEventHandler(registered);
  }

  void unregister() {
    if (registered != null) {
      informer.removeEventHandler(registered);
      registered = null;
    }
  }

  /**
   * Starts the informer unless it is running; then the controller owns it.
   *
   * @return whether this call started it
   */
  boolean startIfNotRunning() {
    if (informer.isRunning()) {
      return false;
    }
    CompletionStage<Void> stage = informer.start();
    startFuture = stage == null ? new CompletableFuture<>() : stage.toCompletableFuture();
    return true;
  }

  boolean owned() {
    return startFuture != null;
  }

  CompletableFuture<Void> startFuture() {
    return startFuture;
  }

  /** The failure of the start this source made, or null. */
  Throwable startFailure() {
    if (startFuture == null || !startFuture.isCompletedExceptionally()) {
      return null;
    }
    try {
      startFuture.get();
      return null;
    } catch (ExecutionException | CompletionException e) {
      return e.getCause() == null ? e : e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    } catch (RuntimeException e) {
      return e;
    }
  }

  boolean hasSynced() {
    return informer.hasSynced();
  }

  /**
   * Delivers every object in the informer's cache to the registered handler as an update with
   * old == new (through the predicates), as an informer resync does. Nothing when not registered.
   *
   * @return how many objects were delivered
   */
  int resync() {
    ResourceEventHandler<T> handler = registered;
    if (handler == null) {
      return 0;
    }
    List<T> cached = informer.getStore().list();
    for (T object : cached) {
      handler.onUpdate(object, object);
    }
    return cached.size();
  }

  void stopIfOwned() {
    if (owned()) {
      informer.stop();
    }
  }

  /** The handler registered with the informer. */
  private final class Enqueuer implements ResourceEventHandler<T> {
    private final WorkQueue<ObjectKey> queue;
    private final String controllerName;

    Enqueuer(WorkQueue<ObjectKey> queue, String controllerName) {
      this.queue = queue;
      this.controllerName = controllerName;
    }

    @Override
    public void onAdd(T object) {
      try {
        if (predicates.stream().allMatch(p -> p.onAdd(object))) {
          enqueue(handler.keysFor(object));
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failed("add", object, e);
      }
    }

    @Override
    public void onUpdate(T oldObject, T newObject) {
      try {
        if (predicates.stream().allMatch(p -> p.onUpdate(oldObject, newObject))) {
          Set<ObjectKey> keys = new LinkedHashSet<>();
          if (oldObject != null) {
            keys.addAll(handler.keysFor(oldObject));
          }
          keys.addAll(handler.keysFor(newObject));
          enqueue(keys);
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failed("update", newObject, e);
      }
    }

    @Override
    public void onDelete(T object, boolean deletedFinalStateUnknown) {
      try {
        if (predicates.stream().allMatch(p -> p.onDelete(object))) {
          enqueue(handler.keysFor(object));
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        failed("delete", object, e);
      }
    }

    private void enqueue(Collection<ObjectKey> keys) {
      keys.forEach(queue::add);
    }

    /** Any failure, even an Error such as a failed assertion, drops only this event. */
    private void failed(String event, T object, Throwable e) {
      LOG.warn("Controller \"{}\": the event handler or a predicate failed on the {} event of {} {}; "
          + "the event queued nothing (or only the keys before the failure) and the controller goes "
          + "on", controllerName, event, kind(), keyOrUnknown(object), e);
    }
  }

  private static String keyOrUnknown(HasMetadata object) {
    try {
      return ObjectKey.of(object).toString();
    } catch (RuntimeException e) {
      return "<no name>";
    }
  }
}
