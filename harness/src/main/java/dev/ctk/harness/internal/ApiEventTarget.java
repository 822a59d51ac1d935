package dev.ctk.harness.internal;

import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.fake.EventInjector;
import dev.ctk.harness.values.Mode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.List;

/**
 * The {@link EventInjector} of the real modes: {@code add}, {@code update} and {@code delete} write
 * through the API with the test's client (an object without a namespace goes into the test's
 * namespace), so every watch and informer sees them as they would see any client's write; {@code
 * update} ignores the object's resourceVersion and retries a bounded number of conflicts. The
 * synthetic {@code emit*} methods fail: a real kube-apiserver cannot send a watch event for an object
 * it does not store.
 */
public final class ApiEventTarget implements EventInjector.Target {

  /** How many times {@link #update} writes before it gives up on 409 Conflicts. */
  public static final int UPDATE_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final Mode mode;
  private final String description;

  public ApiEventTarget(KubernetesClient client, Mode mode, String description) {
    this.client = client;
    this.mode = mode;
    this.description = description;
  }

  @Override
  public <T extends HasMetadata> T add(T object) {
    try {
      return client.resource(withoutResourceVersion(object)).create();
    } catch (KubernetesClientException e) {
      throw failure("add", object, e);
    }
  }

  /**
   * Last writer wins, like the fake's: the object's resourceVersion is ignored. Each attempt reads
   * the current resourceVersion and writes with it; a 409 Conflict (another writer came in between,
   * often the controller under test) is retried with a fresh read, at most {@value #UPDATE_ATTEMPTS}
   * attempts in all, then fails naming the conflicts.
   */
  @Override
  public <T extends HasMetadata> T update(T object) {
    T copy = withoutResourceVersion(object);
    KubernetesClientException conflict = null;
    for (int attempt = 1; attempt <= UPDATE_ATTEMPTS; attempt++) {
      try {
        return client.resource(copy).update();
      } catch (KubernetesClientException e) {
        if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
          throw failure("update", object, e);
        }
        conflict = e;
      }
    }
    throw new IllegalStateException("EventInjector.update(" + describe(object) + ") failed in "
        + mode.configName() + " mode, against " + description + ": 409 Conflict "
        + UPDATE_ATTEMPTS + " times in a row (another writer changed the object between each read "
        + "and write); last answer: " + answer(conflict) + ". Fix: stop the other writer (often "
        + "the controller under test) before injecting the update, or write through the client "
        + "with your own retry.", conflict);
  }

  @Override
  public void delete(HasMetadata object) {
    List<?> deleted;
    try {
      deleted = client.resource(object).delete();
    } catch (KubernetesClientException e) {
      throw failure("delete", object, e);
    }
    if (deleted.isEmpty()) {
      throw new IllegalStateException("EventInjector.delete(" + describe(object) + ") failed in "
          + mode.configName() + " mode: there is no such object on " + description
          + ". Fix: create it first (client or EventInjector.add), or check its namespace and "
          + "name.");
    }
  }

  @Override
  public void emit(String method, String eventType, HasMetadata object, String resourceVersion) {
    throw new UnsupportedOperationException(method + " is fake-mode only: a real kube-apiserver "
        + "cannot send a watch event for an object it does not store; this test runs in "
        + mode.configName() + " mode, against " + description + ". Fix: use add, update or "
        + "delete (they write through the API in every mode), or move this test to a class that "
        + "runs in fake mode only (@ControllerTest(mode = Mode.FAKE)).");
  }

  private static <T extends HasMetadata> T withoutResourceVersion(T object) {
    T copy = ClusterSpec.copy(object);
    if (copy.getMetadata() != null) {
      copy.getMetadata().setResourceVersion(null);
    }
    return copy;
  }

  private IllegalStateException failure(String method, HasMetadata object,
      KubernetesClientException e) {
    return new IllegalStateException("EventInjector." + method + "(" + describe(object)
        + ") failed in " + mode.configName() + " mode, against " + description + ": "
        + e.getCode() + " " + answer(e), e);
  }

  private static String answer(KubernetesClientException e) {
    return (e.getStatus() == null ? "" : e.getStatus().getReason() + ": ")
        + ThrowableText.firstLine(e.getStatus() == null ? e.getMessage()
            : e.getStatus().getMessage());
  }

  private String describe(HasMetadata object) {
    String namespace = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    String name = object.getMetadata() == null ? null : object.getMetadata().getName();
    return object.getKind() + " " + (namespace == null ? client.getNamespace() : namespace) + "/"
        + name;
  }
}
