package dev.ctk.examples.network;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link NetworkBackend} held in memory, which a test can inspect and make fail.
 *
 * <pre>{@code
 * InMemoryNetworkBackend backend = new InMemoryNetworkBackend();
 * backend.failNextCalls(2);            // the next two calls throw NetworkBackendException
 * }</pre>
 *
 * @since 0.1.0
 */
public final class InMemoryNetworkBackend implements NetworkBackend {

  private final Map<String, NetworkSpec> networks = new ConcurrentHashMap<>();
  private final AtomicInteger failuresToInject = new AtomicInteger();
  private final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

  /**
   * Makes the next {@code count} calls to {@link #upsert} or {@link #delete} fail.
   *
   * @param count how many calls fail
   */
  public void failNextCalls(int count) {
    failuresToInject.set(count);
  }

  @Override
  public void upsert(String key, NetworkSpec spec) {
    calls.add("upsert " + key + " " + spec.getCidr() + " via " + spec.getGateway());
    maybeFail("upsert " + key);
    networks.put(key, new NetworkSpec(spec.getCidr(), spec.getGateway()));
  }

  @Override
  public void delete(String key) {
    calls.add("delete " + key);
    maybeFail("delete " + key);
    networks.remove(key);
  }

  @Override
  public NetworkSpec get(String key) {
    return networks.get(key);
  }

  /** @return a copy of the networks the backend holds, by key */
  public Map<String, NetworkSpec> networks() {
    return Map.copyOf(networks);
  }

  /** @return every call made, in order, failed ones included */
  public List<String> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  private void maybeFail(String call) {
    if (failuresToInject.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new NetworkBackendException("backend unavailable during " + call);
    }
  }
}
