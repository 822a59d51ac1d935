package dev.ctk.fake.internal.http;

import dev.ctk.fake.values.ApiRequestRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fake API server's request journal: one {@link ApiRequestRecord} per answered request or injected event,
 * kept in sequence order, bounded to the last {@code limit} entries. Each entry also keeps the raw HTTP request
 * line and the transport, for ctk's own tests. Thread-safe.
 *
 * <p>Sequence numbers are taken when a request is received ({@link #receive()}); entries are added when it is
 * answered, in any order, and kept sorted by sequence.
 */
public final class RequestJournal {

  /**
   * One entry.
   *
   * @param record what the public journal shows
   * @param method the HTTP method ({@code ""} for injected events)
   * @param path the decoded path ({@code ""} for injected events)
   * @param query the decoded query, {@code k=v&...} in the order parsed
   * @param transport {@code http}, {@code http-watch}, {@code websocket-watch} or {@code injected}
   */
  public record Entry(ApiRequestRecord record, String method, String path, String query, String transport) {

    /** The answer's status code. */
    public int code() {
      return record.code();
    }

    @Override
    public String toString() {
      return method + " " + path + (query.isEmpty() ? "" : "?" + query) + " -> " + code() + " (" + transport + ")";
    }
  }

  private final int limit;
  private final AtomicLong sequence = new AtomicLong();
  private final TreeMap<Long, Entry> entries = new TreeMap<>();

  /**
   * Creates a journal.
   *
   * @param limit how many entries to keep
   */
  public RequestJournal(int limit) {
    this.limit = limit;
  }

  /** Takes the next sequence number, for a request or injection just received. */
  public long receive() {
    return sequence.incrementAndGet();
  }

  /** The last sequence number taken (0 before any). */
  public long lastSequence() {
    return sequence.get();
  }

  /** How many entries are kept. */
  public int limit() {
    return limit;
  }

  /** Records an answered request that stored no object (a read, a failure, a fault's answer). */
  void record(ApiRequest request, ApiRequestRecord pending, int code, boolean changed, String fault,
      String transport) {
    record(request, pending, code, changed, fault, null, transport);
  }

  /** Records an answered request, with the generation of the object it wrote ({@code null} when none). */
  void record(ApiRequest request, ApiRequestRecord pending, int code, boolean changed, String fault,
      Long generation, String transport) {
    add(new Entry(answered(pending, code, changed, fault, generation), request.method(), request.path(),
        query(request.query()), transport));
  }

  /** Adds an entry (kept in sequence order; the oldest is dropped beyond the limit). */
  public void add(Entry entry) {
    synchronized (entries) {
      entries.put(entry.record().sequence(), entry);
      while (entries.size() > limit) {
        entries.pollFirstEntry();
      }
    }
  }

  /** A copy of the entries, in sequence order. */
  public List<Entry> entries() {
    synchronized (entries) {
      return List.copyOf(entries.values());
    }
  }

  /** A copy of the records, in sequence order. */
  public List<ApiRequestRecord> records() {
    synchronized (entries) {
      List<ApiRequestRecord> out = new ArrayList<>(entries.size());
      entries.values().forEach(e -> out.add(e.record()));
      return out;
    }
  }

  /** The records with a sequence greater than {@code after}, in sequence order. */
  public List<ApiRequestRecord> since(long after) {
    synchronized (entries) {
      List<ApiRequestRecord> out = new ArrayList<>();
      entries.tailMap(after, false).values().forEach(e -> out.add(e.record()));
      return out;
    }
  }

  /** Forgets every entry (sequence numbers continue). */
  public void clear() {
    synchronized (entries) {
      entries.clear();
    }
  }

  /** The record with its answer filled in: code, whether it changed the store, fault, stored generation. */
  public static ApiRequestRecord answered(ApiRequestRecord r, int code, boolean changed, String fault,
      Long generation) {
    return r.toBuilder().code(code).changed(changed).fault(fault).generation(generation).build();
  }

  private static String query(Map<String, List<String>> query) {
    StringBuilder out = new StringBuilder();
    query.forEach((k, values) -> values.forEach(v -> {
      if (out.length() > 0) {
        out.append('&');
      }
      out.append(k).append('=').append(v);
    }));
    return out.toString();
  }
}
