package dev.ctk.fake.internal.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ctk.fake.internal.status.ApiError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code limit} and {@code continue}: pages of one consistent snapshot, as kube-apiserver serves them from etcd at
 * the first page's resourceVersion.
 *
 * <p>The first page of a limited list keeps the rest of its snapshot (references to immutable objects); the
 * continue token names that snapshot. Only the most recent {@value #RETAINED} snapshots are kept; an older token
 * answers 410 Expired as kube does for a compacted continue token. Not thread-safe: used under the store lock.
 */
final class ListPager {

  static final int RETAINED = 64;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<Long, Snapshot> snapshots = new LinkedHashMap<>(16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Snapshot> eldest) {
      return size() > RETAINED;
    }
  };
  private long nextId;

  ListResult firstPage(String storageKey, List<ObjectNode> all, long resourceVersion, long limit,
      boolean countRemaining) {
    if (limit <= 0 || all.size() <= limit) {
      return new ListResult(List.copyOf(all), resourceVersion, null, null);
    }
    long id = ++nextId;
    snapshots.put(id, new Snapshot(storageKey, List.copyOf(all), resourceVersion, countRemaining));
    return page(id, snapshots.get(id), 0, limit);
  }

  ListResult nextPage(String storageKey, String token, long limit) {
    long id;
    int offset;
    try {
      JsonNode decoded = JSON.readTree(Base64.getUrlDecoder().decode(token));
      id = decoded.path("snapshot").asLong(-1);
      offset = decoded.path("offset").asInt(-1);
    } catch (IOException | IllegalArgumentException e) {
      throw ApiError.badRequest("continue key is not valid: " + e.getMessage());
    }
    if (id < 0 || offset < 0) {
      throw ApiError.badRequest("continue key is not valid: incorrect encoded start resourceVersion (version "
          + "meta.k8s.io/v1)");
    }
    Snapshot snapshot = snapshots.get(id);
    if (snapshot != null && !snapshot.storageKey.equals(storageKey)) {
      throw ApiError.badRequest("continue key is not valid: it continues a list of " + snapshot.storageKey
          + ", not of " + storageKey);
    }
    if (snapshot == null) {
      throw ApiError.expired("The provided continue parameter is too old to display a consistent list result. "
          + "You can start a new list without the continue parameter.");
    }
    return page(id, snapshot, offset, limit <= 0 ? Integer.MAX_VALUE : limit);
  }

  private ListResult page(long id, Snapshot snapshot, int offset, long limit) {
    int end = (int) Math.min(snapshot.items.size(), offset + limit);
    List<ObjectNode> items = snapshot.items.subList(Math.min(offset, snapshot.items.size()), end);
    if (end >= snapshot.items.size()) {
      snapshots.remove(id);
      return new ListResult(List.copyOf(items), snapshot.resourceVersion, null, null);
    }
    ObjectNode token = JSON.createObjectNode();
    token.put("v", "meta.k8s.io/v1");
    token.put("rv", snapshot.resourceVersion);
    token.put("snapshot", id);
    token.put("offset", end);
    String encoded = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(token.toString().getBytes(StandardCharsets.UTF_8));
    Long remaining = snapshot.countRemaining ? (long) (snapshot.items.size() - end) : null;
    return new ListResult(List.copyOf(items), snapshot.resourceVersion, encoded, remaining);
  }

  private record Snapshot(String storageKey, List<ObjectNode> items, long resourceVersion, boolean countRemaining) {
  }
}
