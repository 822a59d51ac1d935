package dev.ctk.fake;

import dev.ctk.fake.values.ApiRequestRecord;
import dev.ctk.fake.values.RequestPattern;
import java.util.List;
import java.util.Objects;

/**
 * Every API request a {@link FakeCluster} answered, and every event a test injected through
 * {@link EventInjector}, as {@link ApiRequestRecord}s. Get it with {@link FakeCluster#requests()}.
 *
 * <pre>{@code
 * RequestJournal journal = cluster.requests();
 * long before = journal.lastSequence();
 * // ... run the controller ...
 * assertThat(journal.entries(RequestPattern.patch("ConfigMap").subresource("status"))).hasSize(1);
 * assertThat(journal.entries(RequestPattern.update("ConfigMap").where("without a resourceVersion",
 *     r -> r.bodyResourceVersion() == null))).isEmpty();
 * journal.since(before).forEach(r -> System.out.println(r.summary()));
 * }</pre>
 *
 * <ul>
 *   <li>Sequence numbers are global for the cluster (requests and injections share them), from 1, and strictly
 *       increasing in the order the server received requests. Lists are ordered by sequence.
 *   <li>A request is recorded when it is answered (a watch: when it is opened or refused), so a request still in
 *       progress (delayed by a fault) is missing until then, and a request received later may already be there.
 *   <li>Bounded: it keeps the last {@link #limit()} (10,000) entries; older ones are dropped.
 *   <li>Requests that never reach the API handlers are not recorded (an HTTP method the server does not serve, a
 *       connection that fails before its body arrives).
 * </ul>
 *
 * <p>Thread-safe; every method returns a copy.
 *
 * @since 0.1.0
 */
public final class RequestJournal {

  private final dev.ctk.fake.internal.http.RequestJournal journal;

  RequestJournal(dev.ctk.fake.internal.http.RequestJournal journal) {
    this.journal = journal;
  }

  /**
   * The API requests (no injected events), oldest first.
   *
   * @return a copy
   */
  public List<ApiRequestRecord> entries() {
    return journal.records().stream().filter(r -> !r.injected()).toList();
  }

  /**
   * The API requests {@code pattern} matches, oldest first.
   *
   * @param pattern which requests
   * @return a copy
   */
  public List<ApiRequestRecord> entries(RequestPattern pattern) {
    Objects.requireNonNull(pattern, "RequestJournal.entries: pattern is null");
    return journal.records().stream().filter(pattern::matches).toList();
  }

  /**
   * The events injected through {@link EventInjector}, oldest first.
   *
   * @return a copy
   */
  public List<ApiRequestRecord> injections() {
    return journal.records().stream().filter(ApiRequestRecord::injected).toList();
  }

  /**
   * Requests and injections together, in sequence order.
   *
   * @return a copy
   */
  public List<ApiRequestRecord> all() {
    return journal.records();
  }

  /**
   * {@link #all()} with a sequence greater than {@code sequence}: what was received after
   * {@link #lastSequence()} returned it.
   *
   * @param sequence a sequence number, e.g. from {@link #lastSequence()}
   * @return a copy
   */
  public List<ApiRequestRecord> since(long sequence) {
    return journal.since(sequence);
  }

  /**
   * The sequence number of the last request or injection received so far (0 before any), whether or not it is
   * answered yet. Everything received afterwards has a greater one.
   *
   * @return the sequence number
   */
  public long lastSequence() {
    return journal.lastSequence();
  }

  /**
   * How many entries the journal keeps: 10,000. Older ones are dropped.
   *
   * @return the bound
   */
  public int limit() {
    return journal.limit();
  }

  /**
   * Forgets every entry. Sequence numbers continue (they are never reused); a request in progress is recorded
   * when it is answered.
   */
  public void clear() {
    journal.clear();
  }

  @Override
  public String toString() {
    List<ApiRequestRecord> all = all();
    StringBuilder out = new StringBuilder("request journal (" + all.size() + " entries)");
    all.forEach(r -> out.append("\n  ").append(r.summary()));
    return out.toString();
  }
}
