package dev.ctk.clientjava;

import dev.ctk.controller.CacheState;
import io.kubernetes.client.informer.SharedInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cache states of Kubernetes Java client informers. client-java's {@link SharedInformer} tells
 * only whether it synced and its last list's resourceVersion (empty until it starts), so: running
 * means started (a stopped informer still counts as running), and watching means synced and
 * started.
 */
final class InformerCaches {

  private static final String INFORMERS_FIELD = "informers";

  private static volatile Field informersField;

  private InformerCaches() {}

  /** The state of one informer now, under a name. */
  static CacheState of(String name, SharedInformer<?> informer) {
    boolean synced = informer.hasSynced();
    String lastList;
    try {
      lastList = informer.lastSyncResourceVersion();
    } catch (RuntimeException e) {
      lastList = null;   // started, between two lists
    }
    boolean running = synced || lastList == null || !lastList.isEmpty();
    return new CacheState(name, synced, running, synced && running);
  }

  /**
   * The states of every informer a factory holds now, by API type name ({@code "V1ConfigMap
   * informer"}). client-java keeps them in the factory's protected {@code informers} field, with no
   * public accessor: it is read reflectively, under the factory's lock, as its own methods do.
   */
  static List<CacheState> of(SharedInformerFactory factory) {
    Map<Type, SharedInformer<?>> informers = new LinkedHashMap<>();
    synchronized (factory) {
      ((Map<?, ?>) read(factory)).forEach((type, informer) ->
          informers.put((Type) type, (SharedInformer<?>) informer));
    }
    List<CacheState> states = new ArrayList<>();
    informers.forEach((type, informer) -> states.add(of(name(type), informer)));
    states.sort(Comparator.comparing(CacheState::name));
    return List.copyOf(states);
  }

  /** Fails at once, with the fix, if this client-java version keeps its informers elsewhere. */
  static void checkReadable(SharedInformerFactory factory) {
    synchronized (factory) {
      read(factory);
    }
  }

  private static Object read(SharedInformerFactory factory) {
    try {
      Field field = informersField;
      if (field == null) {
        field = SharedInformerFactory.class.getDeclaredField(INFORMERS_FIELD);
        field.setAccessible(true);
        informersField = field;
      }
      Object informers = field.get(factory);
      if (informers instanceof Map) {
        return informers;
      }
      throw new IllegalStateException("it is " + (informers == null ? "null"
          : "a " + informers.getClass().getName()) + ", not a Map");
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new IllegalStateException("ClientJavaProbe cannot list the informers of "
          + factory.getClass().getName() + ": its field \"" + INFORMERS_FIELD + "\" (Kubernetes "
          + "Java client 25) cannot be read (" + e + "). Fix: name the informers instead, with "
          + "probe.watch(\"V1ConfigMap informer\", informer) for each.", e);
    }
  }

  private static String name(Type type) {
    String name = type instanceof Class<?> cls ? cls.getSimpleName() : type.getTypeName();
    int generic = name.indexOf('<');
    String raw = generic < 0 ? name : name.substring(0, generic);
    return raw.substring(raw.lastIndexOf('.') + 1) + " informer";
  }
}
