package dev.ctk.fake.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/** An HTTP-streaming watch whose newline-delimited events are collected by a background thread. */
public final class WatchLines implements AutoCloseable {

  private final List<JsonNode> events = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Integer> status = new CompletableFuture<>();
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  private volatile Throwable failure;
  private volatile InputStream body;
  private final Thread reader;
  private final URI uri;

  WatchLines(HttpClient http, URI uri) {
    this.uri = uri;
    reader = new Thread(() -> {
      try {
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri).GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
        status.complete(response.statusCode());
        body = response.body();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
          String line;
          while ((line = lines.readLine()) != null) {
            if (!line.isBlank()) {
              events.add(RawApi.json(line));
            }
          }
        }
        ended.complete(null);
      } catch (IOException e) {
        failure = e;
        status.complete(-1);
        ended.complete(null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        ended.complete(null);
      }
    }, "watch-lines " + uri.getPath());
    reader.setDaemon(true);
    reader.start();
  }

  /** Events received so far. */
  public List<JsonNode> events() {
    return new ArrayList<>(events);
  }

  /** {@code TYPE name} for each event so far (ERROR events: {@code ERROR <code>}). */
  public List<String> summary() {
    List<String> out = new ArrayList<>();
    for (JsonNode e : events) {
      String type = e.path("type").asText();
      JsonNode object = e.path("object");
      out.add(type.equals("ERROR") ? "ERROR " + object.path("code").asText()
          : type + " " + object.path("metadata").path("name").asText());
    }
    return out;
  }

  /** Whether the stream ended (cleanly or not). */
  public boolean hasEnded() {
    return ended.isDone();
  }

  /** Whether the server ended the stream as HTTP says (last chunk received), not by a broken connection. */
  public boolean endedCleanly() {
    return ended.isDone() && failure == null;
  }

  /** Why the stream broke, or {@code null} when it did not (yet). */
  public Throwable failure() {
    return failure;
  }

  /** The HTTP status, once known. */
  public CompletableFuture<Integer> status() {
    return status;
  }

  @Override
  public String toString() {
    return "watch " + uri;
  }

  @Override
  public void close() {
    InputStream b = body;
    if (b != null) {
      try {
        b.close();
      } catch (IOException e) {
        // the stream is going away anyway
      }
    }
    reader.interrupt();
  }
}
