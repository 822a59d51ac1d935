package dev.ctk.controller;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A blocking queue that forwards every call to another and tells a {@link ControllerProbe} about
 * each element inserted. Bulk inserts go through {@link #offer(Object)} one element at a time.
 */
final class ObservedBlockingQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {

  private final BlockingQueue<E> delegate;
  private final Consumer<? super E> onAdd;

  ObservedBlockingQueue(BlockingQueue<E> delegate, Consumer<? super E> onAdd) {
    this.delegate = delegate;
    this.onAdd = onAdd;
  }

  @Override
  public boolean offer(E element) {
    boolean added = delegate.offer(element);
    if (added) {
      onAdd.accept(element);
    }
    return added;
  }

  @Override
  public void put(E element) throws InterruptedException {
    delegate.put(element);
    onAdd.accept(element);
  }

  @Override
  public boolean offer(E element, long timeout, TimeUnit unit) throws InterruptedException {
    boolean added = delegate.offer(element, timeout, unit);
    if (added) {
      onAdd.accept(element);
    }
    return added;
  }

  @Override
  public E take() throws InterruptedException {
    return delegate.take();
  }

  @Override
  public E poll(long timeout, TimeUnit unit) throws InterruptedException {
    return delegate.poll(timeout, unit);
  }

  @Override
  public E poll() {
    return delegate.poll();
  }

  @Override
  public E peek() {
    return delegate.peek();
  }

  @Override
  public int remainingCapacity() {
    return delegate.remainingCapacity();
  }

  @Override
  public int drainTo(Collection<? super E> target) {
    return delegate.drainTo(target);
  }

  @Override
  public int drainTo(Collection<? super E> target, int maxElements) {
    return delegate.drainTo(target, maxElements);
  }

  @Override
  public Iterator<E> iterator() {
    return delegate.iterator();
  }

  @Override
  public int size() {
    return delegate.size();
  }

  @Override
  public boolean remove(Object element) {
    return delegate.remove(element);
  }

  @Override
  public boolean contains(Object element) {
    return delegate.contains(element);
  }

  @Override
  public Object[] toArray() {
    return delegate.toArray();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
