//! What crosses between the host and a device: bytes handed to a tensor from host data, bytes
//! read back, and the reads themselves (each waits for the device to finish the work before it).
//! The training step creates and reads its tensors through [`upload`] and [`read`], so its
//! traffic is counted the same way on every backend, and `log.csv` shows it per logged step.
//!
//! The counts are process-wide (a data-parallel step's threads add to one total): take a
//! [`traffic`] before and after what you measure.
//!
//! [`ReadBack`] (`tensor.floats()`, `tensor.ints()`) is every read-back's conversion to host
//! values, with its error ([`ReadBackError`]) in place of a panic.

use std::ops::Sub;
use std::sync::atomic::{AtomicU64, Ordering};

use burn::tensor::kind::Basic;
use burn::tensor::{Device, Tensor, TensorData};

static UP_BYTES: AtomicU64 = AtomicU64::new(0);
static DOWN_BYTES: AtomicU64 = AtomicU64::new(0);
static READS: AtomicU64 = AtomicU64::new(0);

/// Counts since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Bytes of host data handed to device tensors.
    pub up_bytes: u64,
    /// Bytes read back from device tensors.
    pub down_bytes: u64,
    /// Blocking reads.
    pub reads: u64,
}

impl Sub for Traffic {
    type Output = Traffic;
    fn sub(self, before: Traffic) -> Traffic {
        Traffic {
            up_bytes: self.up_bytes - before.up_bytes,
            down_bytes: self.down_bytes - before.down_bytes,
            reads: self.reads - before.reads,
        }
    }
}

impl std::ops::Add for Traffic {
    type Output = Traffic;
    fn add(self, other: Traffic) -> Traffic {
        Traffic {
            up_bytes: self.up_bytes + other.up_bytes,
            down_bytes: self.down_bytes + other.down_bytes,
            reads: self.reads + other.reads,
        }
    }
}

/// The counts so far.
pub fn traffic() -> Traffic {
    Traffic {
        up_bytes: UP_BYTES.load(Ordering::Relaxed),
        down_bytes: DOWN_BYTES.load(Ordering::Relaxed),
        reads: READS.load(Ordering::Relaxed),
    }
}

/// A tensor on `device` from host data, its bytes counted.
pub fn upload<const D: usize, K: Basic>(data: TensorData, device: &Device) -> Tensor<D, K> {
    UP_BYTES.fetch_add(data.bytes().len() as u64, Ordering::Relaxed);
    Tensor::from_data(data, device)
}

/// A tensor's values on the host: one blocking read, its bytes counted.
pub fn read<const D: usize, K: Basic>(tensor: Tensor<D, K>) -> TensorData {
    let data = tensor.into_data();
    READS.fetch_add(1, Ordering::Relaxed);
    DOWN_BYTES.fetch_add(data.bytes().len() as u64, Ordering::Relaxed);
    data
}

/// Why a tensor's values could not be read back to the host (burn's errors, said in words).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadBackError {
    /// The values are not of the type asked for ([`ReadBack`]; burn's `DataError`).
    #[error("reading a tensor back: {0}")]
    Convert(String),
    /// An asynchronous read (WebGPU in a browser) failed on the device.
    #[error("reading the GPU result failed: {0}")]
    Device(String),
    /// An asynchronous read's values are not floats.
    #[error("unexpected tensor data: {0}")]
    Data(String),
}

/// Reading a tensor's values back to the host, converted to the type asked for: the one way
/// the code does it (a blocking read, not counted in [`traffic`]: the training step counts its
/// own reads through [`read`]).
pub trait ReadBack {
    /// The values as `f32`, whatever the tensor's element type.
    fn floats(self) -> Result<Vec<f32>, ReadBackError>;
    /// The values as `i64`, whatever the tensor's element type.
    fn ints(self) -> Result<Vec<i64>, ReadBackError>;
}

impl<const D: usize, K: Basic> ReadBack for Tensor<D, K> {
    fn floats(self) -> Result<Vec<f32>, ReadBackError> {
        self.into_data().convert::<f32>().try_into_vec::<f32>().map_err(|e| ReadBackError::Convert(format!("{e:?}")))
    }

    fn ints(self) -> Result<Vec<i64>, ReadBackError> {
        self.into_data().convert::<i64>().try_into_vec::<i64>().map_err(|e| ReadBackError::Convert(format!("{e:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::Int;

    /// An upload and a read count their bytes (4 per f32 and per i32, whatever the device
    /// stores) and one read; other tests may add to the totals meanwhile, never take from them.
    #[test]
    fn uploads_and_reads_are_counted() {
        let device = Device::flex();
        let before = traffic();
        let t: Tensor<2> = upload(TensorData::new(vec![1.0f32; 6], [2, 3]), &device);
        let i: Tensor<1, Int> = upload(TensorData::new(vec![1i32; 5], [5]), &device);
        let mid = traffic() - before;
        assert!(mid.up_bytes >= 6 * 4 + 5 * 4);
        let data = read(t * 2.0);
        assert_eq!(data.try_to_vec::<f32>().unwrap(), vec![2.0; 6]);
        drop(i);
        let after = traffic() - before;
        assert!(after.reads >= 1 && after.down_bytes >= 24, "{after:?}");
    }

    /// A read-back converts to the type asked for, floats from ints and ints from floats.
    #[test]
    fn a_read_back_converts() {
        let device = Device::flex();
        let t: Tensor<1> = Tensor::from_data(TensorData::new(vec![1.5f32, -2.0], [2]), &device);
        let i: Tensor<1, Int> = Tensor::from_data(TensorData::new(vec![3i32, 4], [2]), &device);
        assert_eq!(t.clone().floats(), Ok(vec![1.5, -2.0]));
        assert_eq!(i.clone().floats(), Ok(vec![3.0, 4.0]));
        assert_eq!(i.ints(), Ok(vec![3, 4]));
        assert_eq!((t * 2.0).ints(), Ok(vec![3, -4]));
    }
}
