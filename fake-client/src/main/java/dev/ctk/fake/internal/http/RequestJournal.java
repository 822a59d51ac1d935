package dev.ctk.fake.internal.http;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The last requests the fake API server answered (method, path with query, status code, transport), oldest first.
 *
 * <p>A first, bounded version of issue 6's request journal: enough for tests to check which transport a client
 * used and how the server answered. Thread-safe.
 */
public final class RequestJournal {

  /** One answered request. */
  public record Entry(String method, String path, String query, int code, String transport) {
    @Override
    public String toString() {
      return method + " " + path + (query.isEmpty() ? "" : "?" + query) + " -> " + code + " (" + transport + ")";
    }
  }

  private final int limit;
  private final Deque<Entry> entries = new ArrayDeque<>();

  /**
   * Creates a journal.
   *
   * @param limit how many entries to keep
   */
  public RequestJournal(int limit) {
    this.limit = limit;
  }

  void record(ApiRequest request, int code, String transport) {
    StringBuilder query = new StringBuilder();
    request.query().forEach((k, values) -> values.forEach(v -> {
      if (query.length() > 0) {
        query.append('&');
      }
      query.append(k).append('=').append(v);
    }));
    Entry entry = new Entry(request.method(), request.path(), query.toString(), code, transport);
    synchronized (entries) {
      entries.addLast(entry);
      while (entries.size() > limit) {
        entries.removeFirst();
      }
    }
  }

  /** A copy of the entries, oldest first. */
  public List<Entry> entries() {
    synchronized (entries) {
      return List.copyOf(entries);
    }
  }
}
