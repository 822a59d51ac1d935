package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A scripted informer: it never talks to an API server; the test decides whether it runs, whether it
 * has synced, and how its start ends. It records handler registrations and stop calls.
 */
final class StubInformer<T extends HasMetadata> {

  final List<ResourceEventHandler<?>> added = new CopyOnWriteArrayList<>();
  final List<ResourceEventHandler<?>> removed = new CopyOnWriteArrayList<>();
  final CompletableFuture<Void> startFuture = new CompletableFuture<>();
  volatile boolean running;
  volatile boolean synced;
  volatile int starts;
  volatile int stops;
  /** Thrown by {@code addEventHandler} when set. */
  volatile RuntimeException addEventHandlerFailure;
  /** Thrown by {@code start} when set (a RuntimeException or an Error). */
  volatile Throwable startThrows;
  private final SharedIndexInformer<T> proxy;

  @SuppressWarnings("unchecked")
  StubInformer(Class<T> type) {
    proxy = (SharedIndexInformer<T>) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SharedIndexInformer.class}, (self, method, args) -> {
          switch (method.getName()) {
            case "addEventHandler":
              if (addEventHandlerFailure != null) {
                throw addEventHandlerFailure;
              }
              added.add((ResourceEventHandler<?>) args[0]);
              return self;
            case "removeEventHandler":
              removed.add((ResourceEventHandler<?>) args[0]);
              return self;
            case "isRunning":
              return running;
            case "hasSynced":
              return synced;
            case "isWatching":
              return running && synced;
            case "lastSyncResourceVersion":
              return synced ? "1" : null;
            case "getApiTypeClass":
              return type;
            case "start":
              starts++;
              if (startThrows != null) {
                throw startThrows;
              }
              running = true;
              return startFuture;
            case "stop":
            case "close":
              stops++;
              running = false;
              return null;
            case "toString":
              return "StubInformer[" + type.getSimpleName() + "]";
            case "hashCode":
              return System.identityHashCode(self);
            case "equals":
              return self == args[0];
            default:
              throw new UnsupportedOperationException("StubInformer does not support "
                  + method.getName());
          }
        });
  }

  SharedIndexInformer<T> informer() {
    return proxy;
  }

  /** The handler the controller registered, to feed it events directly. */
  @SuppressWarnings("unchecked")
  ResourceEventHandler<T> handler() {
    return (ResourceEventHandler<T>) added.get(0);
  }
}
